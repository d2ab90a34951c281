/**
 * Calls to Staykit with the widget's publishable key — or, for the dashboard's preview (no key), with the member's
 * session cookie, same-origin only; a refusal becomes an ApiFailure with the API's error body.
 */
import type { ApiProblem } from './types.js';

export class ApiFailure extends Error {
  constructor(readonly status: number, readonly problem: ApiProblem) {
    super(problem.message);
  }
}

export class StaykitApi {
  constructor(private readonly base: string, private readonly key: string | null) {}

  async get<T>(path: string): Promise<T> {
    return this.send<T>(path, { method: 'GET' });
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    return this.send<T>(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }

  private async send<T>(path: string, init: RequestInit): Promise<T> {
    const headers = { ...(init.headers as Record<string, string> | undefined), ...(this.key === null ? {} : { authorization: `Bearer ${this.key}` }) };
    // fetch's default credentials ('same-origin') carry the session cookie to the dashboard's own origin only.
    const response = await fetch(new URL(path, this.base), { ...init, headers });
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) {
      const problem = body && typeof body === 'object' && 'message' in body ? (body as ApiProblem) : { code: String(response.status), message: response.statusText, details: null };
      throw new ApiFailure(response.status, problem);
    }
    return body as T;
  }
}
