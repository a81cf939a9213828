import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { confirmAddressLink, describeAddressLink } from '../services/organizations/address-links';
import { CONFIRM_ADDRESS_PATH, type LinkState } from '../services/organizations/owner-confirmation';
import { askPage, CONFIRM_BUSY_PAGE, CONFIRM_PAGE_CSP, CONFIRM_UNAVAILABLE_PAGE, confirmedPage, unusablePage } from './confirm-address-page';
import { clientAddress } from './client-address';
import { readFormFields } from './form-body';
import { requestOrigin } from './request-origin';
import { sendPage } from './public-page';
import type { EntryLimiter } from './public-entry-limit';

const LINK_PATH = new RegExp(`^${CONFIRM_ADDRESS_PATH}/([A-Za-z0-9_-]{1,128})/?$`);
/** The page's form is a dozen bytes. */
const BODY_LIMIT_BYTES = 8 * 1024;

/** The status of each page: a link that cannot confirm is gone (410) or was never one (404). */
const STATUS: Record<Exclude<LinkState, 'valid'>, number> = { used: 410, expired: 410, unknown: 404 };

const page = (res: ServerResponse, status: number, html: string, head = false, extra: Record<string, string> = {}) => sendPage(res, CONFIRM_PAGE_CSP, status, html, head, extra);

/**
 * `GET|HEAD /confirm-address/<token>`: the page that asks to confirm; it changes nothing, since
 * mail scanners follow links. `POST` from its form (`confirm=1`): uses the link and confirms the
 * owner's address, or the organization's notification address (the link says which). No session is needed: the link itself is the proof of the mailbox.
 */
export async function handleConfirmAddress(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'db' | 'clock' | 'config' | 'log'>, limiter: EntryLimiter): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const match = LINK_PATH.exec(queryAt === -1 ? url : url.slice(0, queryAt));
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  const appUrl = deps.config.appUrl;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    res.setHeader('Allow', 'GET, HEAD, POST');
    return page(res, 405, unusablePage('unknown', appUrl));
  }
  // Counted before the database is asked anything, a bad link included.
  const admission = limiter.take(clientAddress(req, deps.config.trustedProxyCidrs));
  if (!admission.allowed) {
    return page(res, 429, CONFIRM_BUSY_PAGE, head, { 'Retry-After': String(Math.max(1, Math.ceil(admission.retryAfterMs / 1000))), Connection: 'close' });
  }
  if (!match) return page(res, 404, unusablePage('unknown', appUrl), head);
  const token = match[1]!;
  try {
    if (method !== 'POST') {
      const link = await describeAddressLink(deps, token);
      return link.state === 'valid' ? page(res, 200, askPage(link.email, link.purpose), head) : page(res, STATUS[link.state], unusablePage(link.state, appUrl), head);
    }
    const fields = await readFormFields(req, BODY_LIMIT_BYTES);
    if (fields === 'too-large') return page(res, 413, unusablePage('unknown', appUrl), false, { Connection: 'close' });
    if (!fields.has('confirm')) return page(res, 400, askPage(null));
    const outcome = await confirmAddressLink(deps, token, requestOrigin((name) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    }));
    if (outcome.state === 'confirmed') return page(res, 200, confirmedPage(outcome.email, appUrl, outcome.purpose));
    // Valid a moment ago and not used by this request: another use won the race.
    const state = outcome.state === 'valid' ? 'used' : outcome.state;
    return page(res, STATUS[state], unusablePage(state, appUrl));
  } catch (error) {
    deps.log.error({ requestId: res.getHeader('X-Request-Id'), err: error }, 'address confirmation failed');
    return page(res, 503, CONFIRM_UNAVAILABLE_PAGE, head, { 'Retry-After': '5' });
  }
}
