/**
 * One CSV cell (RFC 4180) for every export the console writes: the audit log, support batch results and the
 * certification results.csv. A leading = + - @ (or tab, CR) gets a ' so a spreadsheet shows text and never runs
 * a cell as a formula. Framework-free.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = typeof value === "string" ? value : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
