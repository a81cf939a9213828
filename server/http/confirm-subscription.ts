import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { confirmSubscription, CONFIRM_SUBSCRIPTION_PATH, describeConfirmation, type ConfirmationState } from '../services/double-opt-in';
import { clientAddress } from './client-address';
import {
  askToConfirmPage,
  cannotConfirmPage,
  CONFIRM_SUBSCRIPTION_BUSY_PAGE,
  CONFIRM_SUBSCRIPTION_CSP,
  CONFIRM_SUBSCRIPTION_UNAVAILABLE_PAGE,
  subscriptionConfirmedPage,
} from './confirm-subscription-page';
import { readFormFields } from './form-body';
import { sendPage } from './public-page';
import type { EntryLimiter } from './public-entry-limit';
import { requestOrigin } from './request-origin';

const LINK_PATH = new RegExp(`^${CONFIRM_SUBSCRIPTION_PATH}/([A-Za-z0-9_-]{1,128})/?$`);
/** The page's form is a dozen bytes. */
export const CONFIRM_SUBSCRIPTION_BODY_LIMIT_BYTES = 8 * 1024;
/** What of a user agent the ledger keeps: enough to tell a browser, not a place to store a megabyte. */
const USER_AGENT_CHARS = 512;

/** The status of each page: a link that cannot confirm any more is gone (410) or was never one (404); confirmed before is fine (200). */
const STATUS: Record<ConfirmationState, number> = { valid: 200, confirmed: 200, already: 200, settled: 410, expired: 410, unknown: 404 };

const page = (res: ServerResponse, status: number, html: string, head = false, extra: Record<string, string> = {}) => sendPage(res, CONFIRM_SUBSCRIPTION_CSP, status, html, head, extra);

/**
 * `GET|HEAD /confirm-subscription/<token>` (a double opt-in link, docs/consent.md): the page that
 * asks to confirm; it changes nothing, since mail scanners follow links. `POST` from its form
 * (`confirm=1`): confirms, recording the client's address and user agent in the ledger. Counted
 * per client address before anything is read; bodies past 8 KiB are refused; no session, no
 * cookie, no redirect.
 */
export async function handleConfirmSubscription(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey' | 'config' | 'log'>, limiter: EntryLimiter): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const match = LINK_PATH.exec(queryAt === -1 ? url : url.slice(0, queryAt));
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  const none = { email: null, organization: null };
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    res.setHeader('Allow', 'GET, HEAD, POST');
    return page(res, 405, cannotConfirmPage('unknown', none));
  }
  const admission = limiter.take(clientAddress(req, deps.config.trustedProxyCidrs));
  if (!admission.allowed) {
    return page(res, 429, CONFIRM_SUBSCRIPTION_BUSY_PAGE, head, { 'Retry-After': String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))), Connection: 'close' });
  }
  if (!match) return page(res, 404, cannotConfirmPage('unknown', none), head);
  const token = match[1]!;
  try {
    if (method !== 'POST') {
      const link = await describeConfirmation(deps, token);
      if (link.state === 'valid') return page(res, 200, askToConfirmPage(link), head);
      return page(res, STATUS[link.state], cannotConfirmPage(link.state, link), head);
    }
    const fields = await readFormFields(req, CONFIRM_SUBSCRIPTION_BODY_LIMIT_BYTES);
    if (fields === 'too-large') return page(res, 413, cannotConfirmPage('unknown', none), false, { Connection: 'close' });
    if (fields.get('confirm') !== '1') return page(res, 400, askToConfirmPage(none));
    const origin = requestOrigin((name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    });
    const outcome = await confirmSubscription(deps, token, { clientAddress: origin.address, userAgent: origin.userAgent?.slice(0, USER_AGENT_CHARS) ?? null });
    if (outcome.state === 'confirmed') return page(res, 200, subscriptionConfirmedPage(outcome));
    return page(res, STATUS[outcome.state], cannotConfirmPage(outcome.state, outcome));
  } catch (error) {
    deps.log.error({ requestId: res.getHeader('X-Request-Id'), err: error }, 'subscription confirmation failed');
    return page(res, 503, CONFIRM_SUBSCRIPTION_UNAVAILABLE_PAGE, head, { 'Retry-After': '5' });
  }
}
