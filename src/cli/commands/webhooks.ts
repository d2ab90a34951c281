/**
 * `staykit webhooks listen --forward URL --key KEY [--url SERVER] [--secret whsec_…]`: forwards the server's new
 * changes, signed, to a local endpoint until interrupted (src/changes/listen.ts). Prints the signing secret first.
 */
import { UsageError } from '../support/usage-error.js';
import { listen } from '../../changes/listen.js';
import { generateSigningSecret, secretKey } from '../../webhooks/signature.js';

export interface ListenArguments {
  forward?: string;
  key?: string;
  url?: string;
  secret?: string;
}

function httpUrl(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // reported below
  }
  throw new UsageError(`${flag} must be an http(s) URL`);
}

export async function webhooksCommand(positionals: string[], values: ListenArguments): Promise<void> {
  if (positionals[0] !== 'listen' || positionals.length > 1) throw new UsageError('usage: staykit webhooks listen --forward URL --key KEY [--url SERVER] [--secret whsec_…]');
  if (!values.forward) throw new UsageError('webhooks listen needs --forward URL');
  if (!values.key) throw new UsageError('webhooks listen needs --key KEY');
  const secret = values.secret ?? generateSigningSecret();
  try {
    secretKey(secret);
  } catch {
    throw new UsageError('--secret must be a whsec_ signing secret');
  }
  const server = httpUrl(values.url ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`, '--url');
  const forward = httpUrl(values.forward, '--forward');
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  console.error(`Signing secret for your receiver: ${secret}`);
  await listen({
    server,
    key: values.key,
    forward,
    secret,
    signal: controller.signal,
    log: (line) => console.log(line),
  });
}
