import { classifyAddress, isPublicAddress } from '../net/ip-policy';
import type { EnvelopeRecipient } from './message';
import { cachedLookup } from './mx-dns';
import { leaseSession } from './mx-sessions';
import { codeOf, isLocalEnvelopeError, isTransactionAnswer, oneLine, outcomeOfError, outcomeOfInfo, type DeliveryOutcome, type SmtpError } from './outcomes';
import type { DeliveryTimeouts, SessionTarget } from './smtp-session';

interface MxOptions {
  /** DNS_SERVERS, for MX and MX host lookups. */
  dnsServers: string[];
  port: number;
  heloName: string;
  timeouts: DeliveryTimeouts;
  allowPrivateCidrs: string[];
}

/** Why a host or route could not take the mail; `permanent` failures alone make a bounce. */
interface Failure {
  permanent: boolean;
  smtpCode?: number;
  response: string;
  host?: string;
  /** nodemailer's error code (ETLS, ETIMEDOUT, ECONNECTION, …). */
  errorCode?: string;
}

// A domain may list many MX hosts; past a few, more attempts only hold the job longer.
const MAX_HOSTS = 5;
const MAX_ADDRESSES_PER_HOST = 3;

type Route = { hosts: string[]; implicit: boolean } | { failure: Failure };

/** MX hosts in priority order; with no MX the domain itself is the host (RFC 5321 §5.1 implicit MX). */
async function routeOf(dnsServers: string[], domain: string): Promise<Route> {
  const mx = await cachedLookup(dnsServers, 'MX', domain, (resolver) => resolver.resolveMx(domain));
  if (mx.kind === 'transient') return { failure: { permanent: false, response: `DNS lookup of the MX of ${domain} failed (${mx.code})` } };
  if (mx.kind === 'absent' || mx.value.length === 0) return { hosts: [domain], implicit: true };
  if (mx.value.some((record) => record.exchange === '' || record.exchange === '.')) {
    return { failure: { permanent: true, response: `${domain} publishes a null MX (RFC 7505): it accepts no mail` } };
  }
  const ordered = [...mx.value].sort((a, b) => a.priority - b.priority).map((record) => record.exchange.toLowerCase().replace(/\.$/, ''));
  return { hosts: [...new Set(ordered)].slice(0, MAX_HOSTS), implicit: false };
}

/** The host's addresses through DNS_SERVERS, IPv4 first, without private ones unless allowed. */
async function addressesOf(options: MxOptions, host: string, domain: string, implicit: boolean): Promise<{ ips: string[] } | { failure: Failure }> {
  const [v4, v6] = await Promise.all([
    cachedLookup(options.dnsServers, 'A', host, (resolver) => resolver.resolve4(host)),
    cachedLookup(options.dnsServers, 'AAAA', host, (resolver) => resolver.resolve6(host)),
  ]);
  const found = [...(v4.kind === 'found' ? v4.value : []), ...(v6.kind === 'found' ? v6.value : [])];
  if (found.length === 0) {
    const transient = [v4, v6].find((answer) => answer.kind === 'transient');
    if (transient?.kind === 'transient') return { failure: { permanent: false, response: `DNS lookup of ${host} failed (${transient.code})`, host } };
    const response = implicit ? `${domain} has no MX, A or AAAA record: it does not exist or accepts no mail` : `MX host ${host} of ${domain} has no A or AAAA record`;
    return { failure: { permanent: true, response, host } };
  }
  // A recipient domain is anyone's to configure: its MX must not point us at our own network.
  const usable = found.filter((ip) => isPublicAddress(ip, options.allowPrivateCidrs));
  if (usable.length === 0) {
    return { failure: { permanent: true, response: `MX host ${host} resolves to ${found[0]}, ${classifyAddress(found[0]!) ?? 'not a public address'}; not delivering there`, host } };
  }
  return { ips: usable.slice(0, MAX_ADDRESSES_PER_HOST) };
}

function failureOf(error: SmtpError, target: SessionTarget): Failure {
  const smtpCode = error.responseCode ?? codeOf(error.response);
  const text = error.response ? oneLine(error.response) : `${error.code ?? 'error'}: ${error.message}`;
  return {
    permanent: smtpCode !== undefined && smtpCode >= 500,
    ...(smtpCode !== undefined ? { smtpCode } : {}),
    response: `${target.host} [${target.ip}]: ${text}`,
    host: target.host,
    errorCode: error.code,
  };
}

interface SessionResult {
  done: DeliveryOutcome[];
  pending: EnvelopeRecipient[];
  failure?: Failure;
  /** A reused connection broke before the server answered anything on it this time. */
  stale?: boolean;
}

/**
 * One pooled connection, one transaction per recipient (each has its own VERP MAIL FROM), RSET
 * after a refusal so the connection goes back to the pool clean.
 */
async function sendThrough(target: SessionTarget, recipients: EnvelopeRecipient[], raw: Buffer): Promise<SessionResult> {
  const lease = await leaseSession(target);
  const { session } = lease;
  const done: DeliveryOutcome[] = [];
  let reusable = false;
  const stop = (error: unknown, from: number): SessionResult => ({
    done,
    pending: recipients.slice(from),
    failure: failureOf(error as SmtpError, target),
    stale: !lease.fresh && done.length === 0 && (error as SmtpError).responseCode === undefined,
  });
  try {
    if (lease.fresh) {
      try {
        await session.connect();
      } catch (error) {
        return stop(error, 0);
      }
    }
    const where = { host: target.host, label: `${target.host} [${target.ip}]${session.secure ? ' (TLS)' : ''}` };
    for (const [i, recipient] of recipients.entries()) {
      try {
        done.push(outcomeOfInfo(recipient.address, await session.send({ from: recipient.mailFrom, to: [recipient.address] }, raw), where));
      } catch (error) {
        const smtpError = error as SmtpError;
        // Anything but the server's answer to this transaction means the connection is gone.
        if (!isTransactionAnswer(smtpError) && !isLocalEnvelopeError(smtpError)) return stop(error, i);
        done.push(outcomeOfError(recipient.address, smtpError, where));
        try {
          await session.reset();
        } catch (resetError) {
          return stop(resetError, i + 1);
        }
      }
    }
    reusable = true;
    return { done, pending: [] };
  } finally {
    lease.release(reusable);
  }
}

/** Delivers to every recipient of one domain through its MX hosts, in priority order. */
export async function deliverToDomain(domain: string, recipients: EnvelopeRecipient[], raw: Buffer, options: MxOptions): Promise<DeliveryOutcome[]> {
  const route = await routeOf(options.dnsServers, domain);
  const failures: Failure[] = [];
  /** Every try that came to nothing, in order, for the history. */
  const tried: string[] = [];
  const outcomes: DeliveryOutcome[] = [];
  let pending = recipients;
  if ('failure' in route) {
    failures.push(route.failure);
    tried.push(route.failure.response);
  }
  const { hosts, implicit } = 'hosts' in route ? route : { hosts: [], implicit: false };
  for (const host of hosts) {
    const resolved = await addressesOf(options, host, domain, implicit);
    if ('failure' in resolved) {
      failures.push(resolved.failure);
      tried.push(resolved.failure.response);
      continue;
    }
    for (const ip of resolved.ips) {
      const target: SessionTarget = { host, ip, port: options.port, heloName: options.heloName, timeouts: options.timeouts };
      let result = await sendThrough(target, pending, raw);
      // A pooled connection the server had dropped: the retry the deferral would make, without the wait.
      if (result.stale) result = await sendThrough(target, pending, raw);
      // A broken STARTTLS handshake: opportunistic TLS means trying again in plaintext, as MTAs do.
      if (result.failure?.errorCode === 'ETLS' && result.done.length === 0) {
        tried.push(result.failure.response);
        result = await sendThrough({ ...target, plaintext: true }, pending, raw);
      }
      // What came to nothing before these answers stays in their history.
      const earlierTries = [...tried];
      outcomes.push(...result.done.map((outcome) => (earlierTries.length > 0 ? { ...outcome, earlierTries } : outcome)));
      pending = result.pending;
      if (result.failure) {
        failures.push(result.failure);
        tried.push(result.failure.response);
      }
      if (pending.length === 0) return outcomes;
    }
  }
  // Nobody took these: a bounce only when every attempt failed for good, otherwise try again later.
  const last = failures.at(-1) ?? { permanent: false, response: `no MX host of ${domain} could be tried` };
  const permanent = failures.length > 0 && failures.every((failure) => failure.permanent);
  const earlierTries = tried.slice(0, -1);
  for (const recipient of pending) {
    outcomes.push({
      ...(earlierTries.length > 0 ? { earlierTries } : {}),
      recipient: recipient.address,
      outcome: permanent ? 'bounced' : 'deferred',
      ...(last.smtpCode !== undefined ? { smtpCode: last.smtpCode } : {}),
      response: last.response,
      ...(last.host ? { host: last.host } : {}),
    });
  }
  return outcomes;
}
