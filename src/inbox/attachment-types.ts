/**
 * Which files of a guest's e-mail the inbox keeps, and as what they are served (docs/automations.md#inbox).
 *
 * Not kept (listed in the `received` event with `stored: false`, reason `type_not_served`): what a browser or the
 * host's computer runs when it is opened — HTML, SVG, XML and scripts (they would run with Staykit's origin if a
 * browser ever rendered them, or as a local file once downloaded) and programs. Judged by the media type the sender
 * gave and by the file name's extension, because a sender chooses both. A guest has no reason to send either.
 *
 * Served: the media type as given when it is on SERVED_TYPES (what staff open: documents, pictures, text), else
 * application/octet-stream; always as a download, with nosniff and a sandbox (attachment-routes.ts).
 */
const NOT_KEPT_TYPES = new Set([
  'text/html', 'application/xhtml+xml', 'image/svg+xml', 'text/xml', 'application/xml', 'text/xsl', 'application/xslt+xml',
  'application/javascript', 'text/javascript', 'application/x-javascript', 'application/ecmascript', 'text/ecmascript',
  'application/x-shockwave-flash', 'application/hta', 'application/x-msdownload', 'application/x-msdos-program',
  'application/x-sh', 'application/x-bat', 'application/java-archive',
]);

const NOT_KEPT_EXTENSIONS = new Set([
  'html', 'htm', 'shtml', 'xhtml', 'xht', 'mht', 'mhtml', 'svg', 'svgz', 'xml', 'xsl', 'xslt', 'js', 'mjs', 'cjs',
  'swf', 'hta', 'exe', 'com', 'bat', 'cmd', 'scr', 'msi', 'vbs', 'vbe', 'jse', 'wsf', 'ps1', 'sh', 'jar', 'lnk',
]);

export const SERVED_TYPES: ReadonlySet<string> = new Set([
  'application/pdf', 'text/plain', 'text/csv', 'text/calendar',
  'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif', 'image/heic', 'image/heif', 'image/tiff', 'image/bmp',
  'application/zip', 'application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text', 'application/vnd.oasis.opendocument.spreadsheet',
  'audio/mpeg', 'audio/mp4', 'video/mp4', 'video/quicktime',
]);

export const FALLBACK_TYPE = 'application/octet-stream';
/** A media type's shape (RFC 6838 names, lower case): the table's check (migration 0245) says the same. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The sender's media type without its parameters, lower case; application/octet-stream when it is no media type. */
export function mediaTypeOf(given: string): string {
  const type = given.split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(type) && type.length <= 255 ? type : FALLBACK_TYPE;
}

/** Whether a file with this name and (normalized) media type is kept. */
export function isKept(filename: string, mediaType: string): boolean {
  const dot = filename.lastIndexOf('.');
  const extension = dot < 0 ? '' : filename.slice(dot + 1).trim().toLowerCase();
  return !NOT_KEPT_TYPES.has(mediaType) && !NOT_KEPT_EXTENSIONS.has(extension);
}

/** The Content-Type a kept file is served with. */
export function servedType(mediaType: string): string {
  return SERVED_TYPES.has(mediaType) ? mediaType : FALLBACK_TYPE;
}
