import type { Deps } from '../../deps';
import { admitApiKey } from '../api-keys/admission';
import { RATE_LIMIT_WINDOW_MS } from '../plans/plans';
import type { Principal } from '../shared/principal';
import type { SmtpReply } from './replies';

export type SmtpAdmission = { principal: Principal; reply?: undefined } | { principal?: undefined; reply: SmtpReply };

const INVALID: SmtpReply = {
  code: 535,
  enhanced: '5.7.8',
  text: 'UNAUTHORIZED: Authentication credentials invalid: the password is a sending_access API key (eu_live_... or eu_test_...), the username any word, e.g. apikey',
};

const FULL_ACCESS: SmtpReply = {
  code: 535,
  enhanced: '5.7.8',
  text: 'FORBIDDEN: A full_access key cannot be an SMTP password (SMTP settings end up in config files and plugins); create a sending_access key for SMTP',
};

/**
 * The key behind an SMTP password: a `sending_access` key, live or test, not revoked. Asked at
 * AUTH and again at each MAIL FROM, so a revoked key stops working on the next message of an open
 * connection too; each ask counts as a request against the organization's rate limit, as an API
 * call does, and a message over it is refused for now (4xx: the client's queue tries again).
 */
export async function admitSmtpKey(deps: Pick<Deps, 'db' | 'clock' | 'metrics'>, password: string, options: { countsAsMessage: boolean }): Promise<SmtpAdmission> {
  const admission = await admitApiKey(deps, password.trim());
  if (!admission) return { reply: INVALID };
  if (admission.principal.permission !== 'sending_access') return { reply: FULL_ACCESS };
  const limit = admission.rateLimit;
  if (options.countsAsMessage && limit && !limit.allowed) {
    const seconds = Math.max(1, Math.ceil(limit.resetMs / 1000));
    deps.metrics.rateLimited('smtp');
    return { reply: { code: 451, enhanced: '4.7.1', text: `RATE_LIMITED: More than ${limit.limit} requests in ${RATE_LIMIT_WINDOW_MS / 1000} seconds; retry after ${seconds} s` } };
  }
  return { principal: admission.principal };
}
