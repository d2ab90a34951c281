/**
 * The typed failures of an outbound request. Callers (webhook delivery, iCal import) switch on `kind` to decide
 * what to record; `message` is safe to store and show to the organization that owns the target URL.
 */
export type OutboundErrorKind = 'refused' | 'timeout' | 'too_large' | 'network';

export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;

  constructor(kind: OutboundErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundError';
    this.kind = kind;
  }
}

/**
 * The URL or the address it resolves to is not allowed (scheme, private range, metadata endpoint…). `message`
 * never says what a name resolved to (that would map the server's internal network for whoever owns the URL);
 * `detail` does, for the server's logs only.
 */
export class OutboundRefusedError extends OutboundError {
  readonly detail: string | undefined;

  constructor(message: string, detail?: string) {
    super('refused', message);
    this.name = 'OutboundRefusedError';
    this.detail = detail;
  }
}

/** What the client is told when a host resolves to an address that is not allowed. */
export const TARGET_NOT_ALLOWED = 'target not allowed';

/** No complete response within the deadline (DNS, connect, headers and body all count). */
export class OutboundTimeoutError extends OutboundError {
  constructor(timeoutMs: number) {
    super('timeout', `no complete response within ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

/** The response body passed the cap; reading stopped there. `status` is the response's status code. */
export class OutboundTooLargeError extends OutboundError {
  readonly status: number;

  constructor(status: number, maxBytes: number) {
    super('too_large', `response ${status} has a body larger than ${maxBytes} bytes`);
    this.name = 'OutboundTooLargeError';
    this.status = status;
  }
}

/** DNS failure, connection refused or reset, TLS failure… */
export class OutboundNetworkError extends OutboundError {
  constructor(message: string, cause?: unknown) {
    super('network', message, { cause });
    this.name = 'OutboundNetworkError';
  }
}
