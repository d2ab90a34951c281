/** Text put into HTML markup, escaped: the server-rendered pages (guest page, widget iframe page) use it for every value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
