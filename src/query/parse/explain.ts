/**
 * `Accept: application/vnd.pgrst.plan[+text|+json]; for="<media type>"; options=analyze|verbose|settings|buffers|wal`
 * (PostgREST's execution plan media type): the EXPLAIN of the statement the request would run for the `for` media
 * type (default application/json). Only the first (preferred) entry of `Accept` is looked at, as PostgREST does for
 * this media type.
 */
export type ExplainOption = 'analyze' | 'verbose' | 'settings' | 'buffers' | 'wal';

export interface ExplainRequest {
  format: 'text' | 'json';
  /** The media type whose statement is explained. */
  for: string;
  options: ExplainOption[];
  /** The Accept entry as sent, for a 406 where plans are off. */
  raw: string;
}

const OPTIONS = new Set<ExplainOption>(['analyze', 'verbose', 'settings', 'buffers', 'wal']);

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

export function explainRequested(accept: string | undefined): ExplainRequest | undefined {
  if (accept === undefined) return undefined;
  const first = accept.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[0] ?? '';
  const [type = '', ...params] = first.split(';').map((part) => part.trim());
  const match = /^application\/vnd\.pgrst\.plan(?:\+(text|json))?$/i.exec(type);
  if (!match) return undefined;
  let target = 'application/json';
  const options: ExplainOption[] = [];
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0) continue;
    const key = param.slice(0, eq).trim().toLowerCase();
    const value = unquote(param.slice(eq + 1));
    if (key === 'for' && value !== '') target = value;
    if (key === 'options') {
      for (const option of value.split('|')) {
        const name = option.trim().toLowerCase() as ExplainOption;
        if (OPTIONS.has(name) && !options.includes(name)) options.push(name);
      }
    }
  }
  return { format: match[1]?.toLowerCase() === 'json' ? 'json' : 'text', for: target, options, raw: first.trim() };
}
