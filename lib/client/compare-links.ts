/** The Compare page's "Diff two runs" view with runs A and B chosen (either may be empty: chosen there). */
export function diffRunsHref(a: string, b: string): string {
  return `/compare?view=diff&a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}
