import { classifyAddress, isPublicAddress } from '../net/ip-policy';
import type { EnvelopeRecipient } from './message';
import { cachedLookup } from './mx-dns';
import { leaseSession } from './mx-sessions';
import type { Hold, Provider, ShapingGate } from './shaping';
import { codeOf, isLocalEnvelopeError, isTransactionAnswer, oneLine, outcomeOfError, outcomeOfInfo, type DeliveryOutcome, type SmtpError } from './outcomes';
import type { DeliveryTimeouts, SessionTarget } from './smtp-session';

interface MxOptions {
  /** DNS_SERVERS, for MX and MX host lookups. */
  dnsServers: string[];
  port: number;
  heloName: string;
  timeouts: DeliveryTimeouts;
  allowPrivateCidrs: string[];
  /** Traffic shaping per provider, and the sending domain it shapes for; unset: not shaped. */
  shaping?: { gate: ShapingGate; sendingDomain: string };
}

/** The provider a delivery goes to and who it is shaped for. */
interface Lane {
  gate: ShapingGate;
  provider: Provider;
  sendingDomain: string;
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
  /** Not tried: the provider is paused or throttled for this sending domain. */
  held?: { recipients: EnvelopeRecipient[]; hold: Hold };
  failure?: Failure;
  /** A reused connection broke before the server answered anything on it this time. */
  stale?: boolean;
}

/** The server's own words of an outcome, without the `host [ip] (TLS): ` label it is stored with. */
const replyText = (response: string, label: string) => (response.startsWith(`${label}: `) ? response.slice(label.length + 2) : response);

/**
 * Tells the shaper an answer. A reputation block is no fault of the recipient's: its 5xx is a
 * deferral (retried until the window ends, never bounced nor suppressed).
 */
function shaped(lane: Lane | null, outcome: DeliveryOutcome, label: string, localAddress: string | undefined): DeliveryOutcome {
  if (!lane) return outcome;
  const verdict = lane.gate.observe(lane.provider.id, lane.sendingDomain, { smtpCode: outcome.smtpCode, text: replyText(outcome.response, label), localAddress });
  return verdict === 'block' && outcome.outcome === 'bounced' ? { ...outcome, outcome: 'deferred' } : outcome;
}

/**
 * One pooled connection, one transaction per recipient (each has its own VERP MAIL FROM), RSET
 * after a refusal so the connection goes back to the pool clean. With traffic shaping, each
 * transaction first asks the shaper for a place; those it holds are not tried.
 */
async function sendThrough(target: SessionTarget, recipients: EnvelopeRecipient[], message: () => Promise<Buffer>, lane: Lane | null): Promise<SessionResult> {
  const holdAt = (i: number): SessionResult | null => {
    const hold = lane?.gate.admit(lane.provider.id, lane.sendingDomain);
    return hold ? { done, pending: [], held: { recipients: recipients.slice(i), hold } } : null;
  };
  const done: DeliveryOutcome[] = [];
  const first = holdAt(0);
  if (first) return first;
  // Built and signed on first need: a message whose recipients are all held is never signed.
  const raw = await message();
  const lease = await leaseSession(target, lane ? { provider: lane.provider.id, limits: lane.provider.limits } : undefined);
  const { session } = lease;
  let reusable = false;
  const stop = (error: unknown, from: number): SessionResult => {
    const failure = failureOf(error as SmtpError, target);
    const stale = !lease.fresh && done.length === 0 && (error as SmtpError).responseCode === undefined;
    // A refusal at the greeting (421, a 554 block) is the provider's own word. A connection that
    // could not be made at all is told once the whole domain failed (deliverToDomain): a dead
    // backup host must not slow down a provider whose other hosts take the mail.
    if (lane && !stale && done.length === 0 && failure.smtpCode !== undefined) {
      const verdict = lane.gate.observe(lane.provider.id, lane.sendingDomain, { smtpCode: failure.smtpCode, text: replyText(failure.response, `${target.host} [${target.ip}]`), errorCode: failure.errorCode, localAddress: session.localAddress });
      if (verdict === 'block') failure.permanent = false;
    }
    return { done, pending: recipients.slice(from), failure, stale };
  };
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
      if (i > 0) {
        const held = holdAt(i);
        if (held) {
          reusable = true;
          return held;
        }
      }
      try {
        const outcome = outcomeOfInfo(recipient.address, await session.send({ from: recipient.mailFrom, to: [recipient.address] }, raw), where);
        done.push(shaped(lane, outcome, where.label, session.localAddress));
      } catch (error) {
        const smtpError = error as SmtpError;
        // Anything but the server's answer to this transaction means the connection is gone.
        if (!isTransactionAnswer(smtpError) && !isLocalEnvelopeError(smtpError)) return stop(error, i);
        done.push(shaped(lane, outcomeOfError(recipient.address, smtpError, where), where.label, session.localAddress));
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

/**
 * Delivers to every recipient of one domain through its MX hosts, in priority order. `raw` is the
 * signed message, built on first need (once for all domains of a message).
 */
export async function deliverToDomain(domain: string, recipients: EnvelopeRecipient[], raw: () => Promise<Buffer>, options: MxOptions): Promise<DeliveryOutcome[]> {
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
  const lane: Lane | null = options.shaping && hosts.length > 0 ? { ...options.shaping, provider: options.shaping.gate.providerOf(domain, implicit ? [] : hosts) } : null;
  const held: DeliveryOutcome[] = [];
  const holdAll = (result: SessionResult) => {
    for (const recipient of result.held?.recipients ?? []) {
      held.push({ recipient: recipient.address, outcome: 'deferred', response: result.held!.hold.reason, held: { retryAt: result.held!.hold.retryAt } });
    }
  };
  for (const host of hosts) {
    const resolved = await addressesOf(options, host, domain, implicit);
    if ('failure' in resolved) {
      failures.push(resolved.failure);
      tried.push(resolved.failure.response);
      continue;
    }
    for (const ip of resolved.ips) {
      const target: SessionTarget = { host, ip, port: options.port, heloName: options.heloName, timeouts: options.timeouts };
      let result = await sendThrough(target, pending, raw, lane);
      // A pooled connection the server had dropped: the retry the deferral would make, without the wait.
      if (result.stale) result = await sendThrough(target, pending, raw, lane);
      // A broken STARTTLS handshake: opportunistic TLS means trying again in plaintext, as MTAs do.
      if (result.failure?.errorCode === 'ETLS' && result.done.length === 0) {
        tried.push(result.failure.response);
        result = await sendThrough({ ...target, plaintext: true }, pending, raw, lane);
      }
      holdAll(result);
      // What came to nothing before these answers stays in their history.
      const earlierTries = [...tried];
      outcomes.push(...result.done.map((outcome) => (earlierTries.length > 0 ? { ...outcome, earlierTries } : outcome)));
      pending = result.pending;
      if (result.failure) {
        failures.push(result.failure);
        tried.push(result.failure.response);
      }
      if (pending.length === 0) return [...outcomes, ...held];
    }
  }
  // Nobody took these: a bounce only when every attempt failed for good, otherwise try again later.
  const last = failures.at(-1) ?? { permanent: false, response: `no MX host of ${domain} could be tried` };
  // No host of the provider could be reached: that slows it down (a refused connection is its way of asking for less).
  if (lane && pending.length > 0 && last.smtpCode === undefined && last.errorCode) {
    lane.gate.observe(lane.provider.id, lane.sendingDomain, { text: last.response, errorCode: last.errorCode });
  }
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
  return [...outcomes, ...held];
}
