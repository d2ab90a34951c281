/**
 * The two ways a website shows a widget (docs/widget.md#copy-paste-snippet), written for this server's address: the
 * script and element with a publishable key, or an iframe of `/w/<widget id>` (which uses the widget's first active key).
 */

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `server` is Staykit's address as the dashboard is reached (`https://staykit.example`). */
export function embedSnippet(server: string, key: string): string {
  return `<script src="${escapeAttribute(server)}/widget.js"></script>\n<staykit-widget key="${escapeAttribute(key)}"></staykit-widget>`;
}

export function iframeCode(server: string, widgetId: string, title: string): string {
  return `<iframe title="${escapeAttribute(title)}" src="${escapeAttribute(server)}/w/${escapeAttribute(widgetId)}" width="100%" height="900"></iframe>`;
}

/** The key the iframe page uses, and the snippet offers: the first one not revoked, as `/w/<widget id>` picks it. */
export function activeKey<Key extends { revoked_at: string | null }>(keys: readonly Key[]): Key | undefined {
  return keys.find((key) => key.revoked_at === null);
}
