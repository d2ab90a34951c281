/**
 * The one way the dashboard talks to the server: same-origin requests that carry the session cookie, with the
 * session's CSRF token on every write (the server refuses cookie-authenticated writes without it).
 */
import { ApiError, toApiError } from './errors';

let csrfToken: string | null = null;
let sessionLost: () => void = () => {};

/** Called when the server answers 401 to a request made with the session: it expired or was revoked. */
export function onSessionLost(listener: () => void): void {
  sessionLost = listener;
}

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** The CSRF header a write made outside `sessionFetch` (an upload through XMLHttpRequest) must carry. */
export function csrfHeader(): Record<string, string> {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `fetch` with the session's CSRF token added to writes; used by postgrest-js and by `requestJson`. */
export const sessionFetch: typeof fetch = async (input, init = {}) => {
  const method = (init.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
  if (!SAFE_METHODS.has(method) && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  const response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  if (response.status === 401 && csrfToken) sessionLost();
  return response;
};

/** A JSON request; a non-2xx answer is thrown as the API's error body. 204 gives `undefined`. */
export async function requestJson<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await sessionFetch(path, {
      method,
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw toApiError(error);
  }
  const text = await response.text();
  const parsed: unknown = text ? safeParse(text) : undefined;
  if (!response.ok) throw toApiError(parsed ?? { code: String(response.status), message: `${response.status} ${response.statusText}` }, response.status);
  return parsed as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { code: 'invalid_response', message: text.slice(0, 200) };
  }
}

export { ApiError };
