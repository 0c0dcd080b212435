export function offerDownload(content: string, fileName: string, type = "application/json"): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked later, not at once: some browsers start reading the blob only after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
