/**
 * Uploading a photo to POST /v1/media (docs/media.md) with the session. XMLHttpRequest rather than fetch: only it
 * reports upload progress, which a person watching a 10 MB phone photo go up needs to see.
 */
import type { Row } from './database';
import type { MediaVariant } from './json-columns';
import { toApiError } from './errors';
import { csrfHeader } from './http';

export type Media = Row<'media'>;

/** Uploads `file` as a multipart form; `onProgress` gets the share sent so far (0–1). Rejects with the API's error. */
export function uploadMedia(file: File, onProgress: (share: number) => void): Promise<Media> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `${window.location.origin}/v1/media`);
    request.withCredentials = true;
    for (const [name, value] of Object.entries(csrfHeader())) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    request.onload = () => {
      const body: unknown = safeJson(request.responseText);
      if (request.status >= 200 && request.status < 300) resolve(body as Media);
      else reject(toApiError(body ?? { code: String(request.status), message: `${request.status} ${request.statusText}` }, request.status));
    };
    request.onerror = () => reject(toApiError(new Error('the upload was interrupted')));
    const form = new FormData();
    form.append('file', file);
    request.send(form);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The smallest copy at least `width` pixels wide in `format` (else the largest there is): a thumbnail's source. */
export function variantFor(media: Pick<Media, 'variants' | 'url'>, width: number, format: MediaVariant['format'] = 'jpeg'): string {
  const candidates = media.variants.filter((variant) => variant.format === format).sort((a, b) => a.width - b.width);
  return (candidates.find((variant) => variant.width >= width) ?? candidates.at(-1))?.url ?? media.url;
}
