import crypto from 'node:crypto';
import { getDomain } from 'tldts';
import type { Deps } from '@/server/deps';
import {
  OutboundFailedError,
  OutboundRefusedError,
  outboundPolicyFromConfig,
  outboundRequest,
  resolveTxt,
  type OutboundPolicy,
  type OutboundResponse,
} from '@/server/net/outbound';
import type { DnsRecord } from './records';

/**
 * Domain Connect 2 (synchronous flow): can the customer's DNS provider apply our records with one
 * click, and where to send them. Discovery, settings and the template check hit the network on
 * every call (no caching: the answer follows the customer's DNS as it is now). Every HTTP call
 * goes through outboundRequest: the provider's hosts are chosen by whoever controls the domain's
 * DNS, so they get the same public-address policy as webhooks.
 */

export type DomainConnectAnswer =
  | { supported: true; providerId: string; providerName: string; applyUrl: string }
  | { supported: false; reason: string };

interface DomainConnectOptions {
  /** Extra trusted CA for the provider's HTTPS (tests with a self-signed certificate). */
  ca?: string | Buffer;
}

interface DomainConnectDomain {
  name: string;
  records: DnsRecord[];
}

const SERVICE_NAME = 'EU Mail';
const HTTP_LIMITS = { timeoutMs: 5_000, maxBytes: 64 * 1024 };
const BY_HAND = 'add the records by hand';

/** The template's variables, in the order they are put on the apply URL (docs/domain-connect-template.json). */
function templateVariables(domain: DomainConnectDomain): Record<string, string> {
  const find = (kind: DnsRecord['record']) => {
    const record = domain.records.find((r) => r.record === kind);
    if (!record) throw new Error(`Domain Connect: the ${kind} record of ${domain.name} is missing`);
    return record;
  };
  const dkim = find('DKIM');
  const mx = find('MX');
  const spf = find('SPF');
  const dmarc = find('DMARC');
  const dkimKey = /(?:^|;)\s*p=([^;\s]+)/.exec(dkim.value)?.[1];
  const spfInclude = /\binclude:(\S+)/.exec(spf.value)?.[1];
  if (!dkimKey || !spfInclude) throw new Error(`Domain Connect: the DKIM or SPF record of ${domain.name} has no key or include`);
  return {
    dkimselector: dkim.host.replace(/\._domainkey$/, ''),
    dkimkey: dkimKey,
    returnpath: mx.host,
    mxhost: mx.value,
    spfinclude: spfInclude,
    // The template fixes "v=DMARC1; " itself, so the variable cannot turn the record into something else.
    dmarcpolicy: dmarc.value.replace(/^v=DMARC1;\s*/i, ''),
  };
}

/** RFC 3986 percent-encoding: what the DNS provider re-encodes before checking the signature. */
const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

interface ApplyUrlInput {
  urlSyncUX: string;
  providerId: string;
  serviceId: string;
  domain: string;
  host: string;
  variables: Record<string, string>;
  privateKeyPem: string;
  keyHost: string;
}

/**
 * The apply URL, signed: sig is the base64 RSA-SHA256 signature of the query string exactly as
 * sent up to "&sig=", and key names the TXT host of our public key under the template's
 * syncPubKeyDomain.
 */
function signedApplyUrl(input: ApplyUrlInput): string {
  const params: Array<[string, string]> = [['domain', input.domain]];
  if (input.host) params.push(['host', input.host]);
  params.push(...Object.entries(input.variables));
  const query = params.map(([name, value]) => `${name}=${encode(value)}`).join('&');
  const sig = crypto.sign('sha256', Buffer.from(query), input.privateKeyPem).toString('base64');
  const base = input.urlSyncUX.replace(/\/+$/, '');
  const path = `/v2/domainTemplates/providers/${encode(input.providerId)}/services/${encode(input.serviceId)}/apply`;
  return `${base}${path}?${query}&sig=${encode(sig)}&key=${encode(input.keyHost)}`;
}

// The _domainconnect TXT holds a host with an optional port and path prefix, never a scheme.
const API_PREFIX = /^[a-z0-9.-]+(?::\d{1,5})?(?:\/[\w.~%!$&'()*+,;=:@/-]*)?$/i;

type Step<T> = { ok: true; value: T } | { ok: false; reason: string };

async function discoverApiPrefix(registrable: string, policy: OutboundPolicy): Promise<Step<string>> {
  const name = `_domainconnect.${registrable}`;
  let values: string[];
  try {
    values = await resolveTxt(name, policy.dnsServers);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { ok: false, reason: `Could not look up ${name} (${code}); try again later or ${BY_HAND}` };
  }
  if (values.length === 0) {
    return { ok: false, reason: `Your DNS provider does not support Domain Connect (no _domainconnect record for ${registrable}); ${BY_HAND}` };
  }
  const prefix = values.map((v) => v.trim().replace(/\/+$/, '')).find((v) => API_PREFIX.test(v));
  if (!prefix) return { ok: false, reason: `The _domainconnect record of ${registrable} ("${values[0]}") is not a Domain Connect host; ${BY_HAND}` };
  return { ok: true, value: prefix };
}

/** One GET through the outbound policy; a refusal or failure becomes a reason naming `what`. */
async function get(url: string, what: string, policy: OutboundPolicy): Promise<Step<OutboundResponse>> {
  try {
    return { ok: true, value: await outboundRequest(url, { headers: { accept: 'application/json' }, ...HTTP_LIMITS }, policy) };
  } catch (error) {
    if (error instanceof OutboundRefusedError) return { ok: false, reason: `${what} was not contacted: ${error.message}; ${BY_HAND}` };
    if (error instanceof OutboundFailedError) return { ok: false, reason: `${what} could not be reached: ${error.message}; try again later or ${BY_HAND}` };
    throw error;
  }
}

const unexpectedStatus = (what: string, status: number) =>
  status >= 300 && status < 400
    ? `${what} answered with a redirect (HTTP ${status}), which is not followed; ${BY_HAND}`
    : `${what} answered HTTP ${status}; try again later or ${BY_HAND}`;

interface ProviderSettings {
  providerId: string;
  providerName: string;
  urlSyncUX: string;
  urlAPI: string;
}

const httpsUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password && !url.search && !url.hash;
  } catch {
    return false;
  }
};

async function fetchSettings(prefix: string, registrable: string, policy: OutboundPolicy): Promise<Step<ProviderSettings>> {
  const what = `Your DNS provider's Domain Connect settings for ${registrable}`;
  const got = await get(`https://${prefix}/v2/${registrable}/settings`, what, policy);
  if (!got.ok) return got;
  if (got.value.status === 404) return { ok: false, reason: `Your DNS provider has no Domain Connect settings for ${registrable} (HTTP 404); ${BY_HAND}` };
  if (got.value.status !== 200) return { ok: false, reason: unexpectedStatus(what, got.value.status) };
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(got.value.body.toString('utf8'));
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not an object');
  } catch {
    return { ok: false, reason: `${what} are not valid JSON; ${BY_HAND}` };
  }
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const providerId = text(json.providerId);
  if (!providerId) return { ok: false, reason: `${what} have no providerId; ${BY_HAND}` };
  const providerName = text(json.providerDisplayName) ?? text(json.providerName) ?? providerId;
  if (json.urlSyncUX === undefined) {
    return { ok: false, reason: `${providerName} does not offer the one-click (synchronous) Domain Connect flow for ${registrable}; ${BY_HAND}` };
  }
  if (!httpsUrl(json.urlSyncUX) || !httpsUrl(json.urlAPI)) {
    return { ok: false, reason: `${what} do not give valid https urlSyncUX and urlAPI addresses; ${BY_HAND}` };
  }
  return { ok: true, value: { providerId, providerName, urlSyncUX: json.urlSyncUX, urlAPI: json.urlAPI } };
}

async function templateSupported(settings: ProviderSettings, providerId: string, serviceId: string, policy: OutboundPolicy): Promise<Step<true>> {
  const what = `${settings.providerName} (asked whether it has the ${SERVICE_NAME} template)`;
  const url = `${settings.urlAPI.replace(/\/+$/, '')}/v2/domainTemplates/providers/${encode(providerId)}/services/${encode(serviceId)}`;
  const got = await get(url, what, policy);
  if (!got.ok) return got;
  if (got.value.status === 200) return { ok: true, value: true };
  if (got.value.status === 404) {
    return { ok: false, reason: `${settings.providerName} does not have the ${SERVICE_NAME} template yet (provider ${providerId}, service ${serviceId}); ${BY_HAND}` };
  }
  return { ok: false, reason: unexpectedStatus(what, got.value.status) };
}

/**
 * Whether the customer's DNS provider can apply this domain's records through Domain Connect,
 * with the signed apply URL to send them to, or the reason it cannot. Never throws for anything
 * the customer's DNS or provider does; throws only for a domain without its records or a
 * signing key that cannot sign.
 */
export async function checkDomainConnect(deps: Pick<Deps, 'config'>, domain: DomainConnectDomain, options: DomainConnectOptions = {}): Promise<DomainConnectAnswer> {
  const dc = deps.config.domainConnect;
  if (!dc) return { supported: false, reason: 'Domain Connect is not configured on this service' };
  const name = domain.name.toLowerCase().replace(/\.$/, '');
  const variables = templateVariables(domain);
  const registrable = getDomain(name, { allowPrivateDomains: true });
  if (!registrable) return { supported: false, reason: `${name} is not under a public domain suffix; ${BY_HAND}` };
  const host = name === registrable ? '' : name.slice(0, -registrable.length - 1);
  const policy = outboundPolicyFromConfig(deps.config, options.ca);

  const prefix = await discoverApiPrefix(registrable, policy);
  if (!prefix.ok) return { supported: false, reason: prefix.reason };
  const settings = await fetchSettings(prefix.value, registrable, policy);
  if (!settings.ok) return { supported: false, reason: settings.reason };
  const template = await templateSupported(settings.value, dc.providerId, dc.serviceId, policy);
  if (!template.ok) return { supported: false, reason: template.reason };

  const applyUrl = signedApplyUrl({
    urlSyncUX: settings.value.urlSyncUX,
    providerId: dc.providerId,
    serviceId: dc.serviceId,
    domain: registrable,
    host,
    variables,
    privateKeyPem: dc.privateKeyPem,
    keyHost: dc.keyHost,
  });
  return { supported: true, providerId: settings.value.providerId, providerName: settings.value.providerName, applyUrl };
}
