/** Outbound request errors; messages are written for the customer or operator who reads them. */

/** The request was not made: the URL or the address it resolves to is not allowed. */
export class OutboundRefusedError extends Error {
  readonly kind = 'refused' as const;
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/** The request was allowed but did not complete: DNS, connection, TLS, timeout or size. */
export class OutboundFailedError extends Error {
  readonly kind = 'failed' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OutboundFailedError';
  }
}

const TLS_CODES = new Set([
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Turns a connection-level error into a sentence naming the host and what went wrong. */
export function describeNetworkError(error: unknown, target: { host: string; address: string; port: number }): OutboundFailedError {
  const err = error as NodeJS.ErrnoException;
  const code = err?.code ?? '';
  const where = `${target.host} (${target.address} port ${target.port})`;
  let message: string;
  if (code === 'ECONNREFUSED') message = `${where} refused the connection`;
  else if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') message = `${where} is unreachable`;
  else if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') message = `${where} did not accept the connection in time`;
  else if (TLS_CODES.has(code) || /certificate|ssl|tls/i.test(err?.message ?? '')) message = `the TLS certificate of ${target.host} is not valid: ${err.message}`;
  else if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') message = `${where} closed the connection before answering`;
  else message = `the request to ${where} failed: ${err?.message ?? String(error)}`;
  return new OutboundFailedError(message, { cause: error });
}
