/**
 * Early check of a webhook endpoint, for the HTTP layer to answer 400 on POST/PATCH /webhooks instead of letting
 * every delivery fail: the same rules as delivery (https unless private targets are allowed; the host must not
 * resolve to a private, loopback, link-local or metadata address). Delivery checks again on every attempt, since
 * DNS answers change.
 */
import { checkUrl, resolveTarget, type ResolvedAddress } from '../outbound/request.js';
import { OutboundError } from '../outbound/errors.js';

export interface EndpointProblem {
  /** `refused`: never deliverable under this configuration; `network`: the host does not resolve (now). */
  kind: 'refused' | 'network';
  message: string;
}

export async function checkWebhookEndpoint(
  endpoint: string,
  allowPrivate: boolean,
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>,
): Promise<EndpointProblem | undefined> {
  try {
    await resolveTarget(checkUrl(endpoint, allowPrivate), allowPrivate, resolve);
    return undefined;
  } catch (error) {
    if (error instanceof OutboundError && (error.kind === 'refused' || error.kind === 'network')) {
      return { kind: error.kind, message: error.message };
    }
    throw error;
  }
}
