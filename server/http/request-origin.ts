import type { IncomingMessage } from 'node:http';
import type { RequestOrigin } from '../services/shared/principal';
import { clientAddress } from './client-address';

/**
 * The header that carries the client's address, as the listener decided it, to whatever handles
 * the request next (better-auth: its own rate limits and the address kept on a session; tRPC;
 * Next's route handlers). The listener overwrites whatever a client sent under this name, so
 * nobody can choose the address recorded for them; better-auth would otherwise believe a client's
 * X-Forwarded-For, or, without one, count everybody in one bucket.
 */
export const CLIENT_ADDRESS_HEADER = 'x-eumail-client-address';

export function stampClientAddress(req: IncomingMessage, trustedProxies: string[]): void {
  // An IPv4 client of a dual-stack socket shows as ::ffff:a.b.c.d; people read the IPv4 form.
  const address = clientAddress(req, trustedProxies)?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;
  else delete req.headers[CLIENT_ADDRESS_HEADER];
}

/** Where a request came from, read from its headers once the listener has stamped them. */
export function requestOrigin(header: (name: string) => string | null | undefined): RequestOrigin {
  return { address: header(CLIENT_ADDRESS_HEADER) ?? null, userAgent: header('user-agent') ?? null };
}
