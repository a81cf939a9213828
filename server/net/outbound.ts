import net from 'node:net';
import { Client, Pool, buildConnector, type Dispatcher } from 'undici';
import type { Config } from '@/server/config';
import { classifyAddress, isPublicAddress, parseCidr } from './ip-policy';
import { OutboundFailedError, OutboundRefusedError, describeNetworkError } from './outbound-errors';
import { resolveHost } from './resolver';

/**
 * The one way this service calls URLs that customers or third parties choose (webhooks, Domain
 * Connect). It resolves the host itself, refuses unless every address is public, and then dials
 * exactly the address it checked, so a DNS answer that changes between the check and the
 * connection (rebinding) cannot redirect it inward. Redirects are never followed: a 3xx is handed
 * back as it is.
 */

export { classifyAddress, isPublicAddress, parseCidr } from './ip-policy';
export { OutboundFailedError, OutboundRefusedError } from './outbound-errors';
export { resolveHost, resolveTxt } from './resolver';

export interface OutboundPolicy {
  /** `host[:port]` DNS servers (config.dnsServers); empty = the system's. */
  dnsServers: string[];
  /** Private ranges the operator opened for tests (config.webhookAllowPrivateCidrs). */
  allowPrivateCidrs: string[];
  /** Extra trusted CA (tests with a self-signed certificate); replaces the default roots. */
  ca?: string | Buffer;
}

interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole request: DNS, connect, TLS, headers and body. */
  timeoutMs?: number;
  /** The response body may not be larger than this. */
  maxBytes?: number;
  /** Past maxBytes: fail (the default), or keep the first maxBytes and drop the rest. */
  overflow?: 'fail' | 'truncate';
  /**
   * Keep the connection for the next request to the same origin at the same checked address
   * (webhooks, which call one endpoint many times). Every request still resolves and checks first.
   */
  keepAlive?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

type UrlCheck = { ok: true; url: URL; host: string; isIpLiteral: boolean } | { ok: false; reason: string };

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** The policy of config: its DNS servers and its test-only allow-list. */
export function outboundPolicyFromConfig(config: Pick<Config, 'dnsServers' | 'webhookAllowPrivateCidrs'>, ca?: string | Buffer): OutboundPolicy {
  return { dnsServers: config.dnsServers, allowPrivateCidrs: config.webhookAllowPrivateCidrs, ca };
}

/**
 * Checks what can be checked without DNS: http(s) only, no credentials, a fully qualified host
 * name or a public IP literal. Run it when a URL is saved; `outboundRequest` runs it again.
 */
export function validateOutboundUrl(input: string | URL, allowPrivateCidrs: string[] = []): UrlCheck {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return { ok: false, reason: `"${String(input)}" is not a valid URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `the URL must start with http:// or https:// (got ${url.protocol})` };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not contain a user name or password' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host)) {
    if (!isPublicAddress(host, allowPrivateCidrs)) {
      return { ok: false, reason: `the URL points to ${host}, ${classifyAddress(host)}; only public addresses are allowed` };
    }
    return { ok: true, url, host, isIpLiteral: true };
  }
  const name = host.replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) return { ok: false, reason: `"${host}" is not a valid host name` };
  if (labels.length < 2 || labels.at(-1) === 'localhost') {
    return { ok: false, reason: `"${host}" is not a public host name; use a fully qualified name such as hooks.example.com` };
  }
  return { ok: true, url, host: name, isIpLiteral: false };
}

/** Allow-lists already parsed: a policy's list is checked once, not on every request. */
const wellFormedLists = new WeakSet<string[]>();

const URL_CHECKS_MAX = 1_000;
const urlChecks = new WeakMap<string[], Map<string, UrlCheck>>();

/**
 * {@link validateOutboundUrl} of a URL string, remembered per allow-list: an endpoint is called
 * with the same URL thousands of times, and the answer depends on nothing else (no DNS here).
 */
function checkedUrl(url: string | URL, allowPrivateCidrs: string[]): UrlCheck {
  if (typeof url !== 'string') return validateOutboundUrl(url, allowPrivateCidrs);
  let known = urlChecks.get(allowPrivateCidrs);
  if (!known) urlChecks.set(allowPrivateCidrs, (known = new Map()));
  let check = known.get(url);
  if (!check) {
    check = validateOutboundUrl(url, allowPrivateCidrs);
    if (known.size >= URL_CHECKS_MAX) known.clear();
    known.set(url, check);
  }
  return check;
}

/** The addresses `host` resolves to, all of them public (or allowed), or a refusal. */
async function checkedAddresses(check: Extract<UrlCheck, { ok: true }>, policy: OutboundPolicy, signal: AbortSignal): Promise<string[]> {
  if (check.isIpLiteral) return [check.host];
  let addresses: string[];
  try {
    addresses = await resolveHost(check.host, policy.dnsServers, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new OutboundFailedError(`the DNS lookup of ${check.host} failed (${code}); try again later`, { cause: error });
  }
  if (addresses.length === 0) throw new OutboundFailedError(`${check.host} does not resolve to any address (no A or AAAA record)`);
  const refused = addresses.find((address) => !isPublicAddress(address, policy.allowPrivateCidrs));
  if (refused) {
    throw new OutboundRefusedError(`${check.host} resolves to ${refused}, ${classifyAddress(refused)}; only public addresses are allowed`);
  }
  return addresses;
}

const UNDICI_BACKSTOP_MS = 2_000;
/** undici's own timeouts: the same outcome as the request's deadline, whichever fires first. */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Connection options whose every connection goes to `address` (TLS still checks the host name). */
function pinnedOptions(host: string, address: string, policy: OutboundPolicy, timeoutMs: number): Client.Options {
  const connector = buildConnector({ timeout: timeoutMs, ...(policy.ca ? { ca: policy.ca } : {}) });
  return {
    connect: (options, callback) => connector({ ...options, hostname: address, servername: net.isIP(host) ? undefined : host }, callback),
    // The request's own deadline (the abort timer) bounds the whole exchange; undici's timers are a
    // backstop behind it, later, since their coarse clock may fire a little early.
    headersTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
    bodyTimeout: timeoutMs + UNDICI_BACKSTOP_MS,
  };
}

/** Kept connections: per origin, checked address and trust (the CA), so a reused one is pinned exactly as a new one would be. */
const POOL_CONNECTIONS = 16;
const MAX_POOLS = 256;
const pools = new Map<string, Pool>();

/** A short name for a CA (a certificate of kilobytes, compared once, not spelt into every pool key). */
const trustIds = new Map<string, number>();
const bufferTrustIds = new WeakMap<Buffer, number>();
function trustId(ca: string | Buffer): number {
  if (typeof ca !== 'string') {
    let id = bufferTrustIds.get(ca);
    if (id === undefined) bufferTrustIds.set(ca, (id = trustId(ca.toString())));
    return id;
  }
  let id = trustIds.get(ca);
  if (id === undefined) trustIds.set(ca, (id = trustIds.size + 1));
  return id;
}

function keptPool(url: URL, host: string, address: string, policy: OutboundPolicy, timeoutMs: number): Dispatcher {
  const key = `${url.origin} ${address} ${timeoutMs} ${policy.ca ? trustId(policy.ca) : '-'}`;
  let pool = pools.get(key);
  if (pool) {
    // Most recently used last, so the oldest is the one closed when there are too many.
    pools.delete(key);
    pools.set(key, pool);
    return pool;
  }
  if (pools.size >= MAX_POOLS) {
    const [oldestKey, oldest] = pools.entries().next().value as [string, Pool];
    pools.delete(oldestKey);
    void oldest.close().catch(() => {});
  }
  pool = new Pool(url.origin, { ...pinnedOptions(host, address, policy, timeoutMs), connections: POOL_CONNECTIONS });
  pools.set(key, pool);
  return pool;
}

/** Closes the kept connections (the process is stopping, or a test ends). */
export async function closeOutboundConnections(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((pool) => pool.close().catch(() => {})));
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }, maxBytes: number, host: string, overflow: 'fail' | 'truncate'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > maxBytes) {
      if (overflow === 'fail') throw new OutboundFailedError(`the answer of ${host} is larger than ${maxBytes} bytes`);
      chunks.push(chunk.subarray(0, maxBytes - size));
      body.destroy();
      break;
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Makes one HTTP(S) request to a public address. Throws OutboundRefusedError when the policy
 * forbids it (nothing was sent) and OutboundFailedError when it did not complete.
 */
export async function outboundRequest(url: string | URL, options: OutboundRequestOptions, policy: OutboundPolicy): Promise<OutboundResponse> {
  const { method = 'GET', headers = {}, body, timeoutMs = 10_000, maxBytes = 1_048_576, overflow = 'fail', keepAlive = false } = options;
  // A malformed allow-list is the operator's mistake: say so plainly, before anything else.
  if (!wellFormedLists.has(policy.allowPrivateCidrs)) {
    policy.allowPrivateCidrs.forEach(parseCidr);
    wellFormedLists.add(policy.allowPrivateCidrs);
  }
  const check = checkedUrl(url, policy.allowPrivateCidrs);
  if (!check.ok) throw new OutboundRefusedError(check.reason);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const port = Number(check.url.port) || (check.url.protocol === 'https:' ? 443 : 80);
  let address = '';
  let client: Client | undefined;
  let dispatcher: Dispatcher;
  try {
    const addresses = await checkedAddresses(check, policy, controller.signal);
    // The first checked address; every address was checked, so none is worse than another.
    address = addresses[0]!;
    if (keepAlive) dispatcher = keptPool(check.url, check.host, address, policy, timeoutMs);
    else dispatcher = client = new Client(check.url.origin, pinnedOptions(check.host, address, policy, timeoutMs));
    const response = await dispatcher.request({
      path: `${check.url.pathname}${check.url.search}`,
      method: method as 'GET',
      headers,
      body,
      signal: controller.signal,
    });
    const declared = Number(response.headers['content-length']);
    if (declared > maxBytes && overflow === 'fail') {
      response.body.destroy();
      throw new OutboundFailedError(`the answer of ${check.host} is larger than ${maxBytes} bytes`);
    }
    // An answer whose declared length fits is read whole: undici ends the body at that length, so
    // it cannot grow past it, and the chunk-by-chunk loop cost a webhook delivery microseconds.
    const answer = declared <= maxBytes ? Buffer.from(await response.body.arrayBuffer()) : await readCapped(response.body, maxBytes, check.host, overflow);
    return { status: response.statusCode, headers: response.headers, body: answer };
  } catch (error) {
    if (error instanceof OutboundRefusedError || error instanceof OutboundFailedError) throw error;
    if (controller.signal.aborted || UNDICI_TIMEOUTS.has((error as { code?: string }).code ?? '')) {
      const message = address ? `${check.host} did not answer completely within ${timeoutMs} ms` : `the DNS lookup of ${check.host} did not finish within ${timeoutMs} ms`;
      throw new OutboundFailedError(message, { cause: error });
    }
    throw describeNetworkError(error, { host: check.host, address, port });
  } finally {
    clearTimeout(timer);
    await client?.destroy().catch(() => {});
  }
}
