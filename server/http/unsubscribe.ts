import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { describeUnsubscribe } from '../services/unsubscribe/describe';
import { unsubscribe } from '../services/unsubscribe/unsubscribe';
import { readFormFields } from './form-body';
import { sendPage, sendPublic } from './public-page';
import { SAMPLE_UNSUBSCRIBE_TOKENS } from '../services/unsubscribe/tokens';
import { confirmPage, donePage, NOT_FOUND_PAGE, PAGE_CSP, SAMPLE_PAGE, savedPage, UNAVAILABLE_PAGE } from './unsubscribe-page';
import type { PreferenceChoices } from '../services/unsubscribe/vocabulary';
import { isUuid } from '../ids';
import { requestOrigin } from './request-origin';

/** `/unsubscribe/<token>`; the token alphabet is base64url, anything else is no unsubscribe link. */
const UNSUBSCRIBE_PATH = /^\/unsubscribe\/([A-Za-z0-9_-]{1,128})\/?$/;
/** The one-click body and the page's form are a few dozen bytes. */
export const UNSUBSCRIBE_BODY_LIMIT_BYTES = 8 * 1024;
const ALLOW = 'GET, HEAD, POST';

// Nothing here sets a cookie or redirects (RFC 8058).
const page = (res: ServerResponse, status: number, html: string, head = false, extra: Record<string, string> = {}) => sendPage(res, PAGE_CSP, status, html, head, extra);

const text = (res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}) =>
  sendPublic(res, status, `${body}\n`, { 'Content-Type': 'text/plain; charset=utf-8', ...extra });

/** The links of test copies and previews (`SAMPLE_UNSUBSCRIBE_TOKENS`): a page that says so, never a contact. */
const SAMPLE_TOKENS = new Set<string>(SAMPLE_UNSUBSCRIBE_TOKENS);

/**
 * The preference page's fields: `shown` (the topic ids the form offered, and `audience` when it
 * offered the audience), a `topic_<id>=1` per ticked topic, `audience=1` when ticked. Anything not
 * a topic id is passed over; which ids are the organization's topics is the service's to check.
 */
function preferenceChoices(fields: Map<string, string>): PreferenceChoices {
  const shown = (fields.get('shown') ?? '').split(/\s+/);
  const ticked = [...fields.entries()].filter(([name, value]) => name.startsWith('topic_') && value === '1').map(([name]) => name.slice('topic_'.length));
  return {
    shown: { topics: shown.filter(isUuid), audience: shown.includes('audience') },
    ticked: { topics: ticked.filter(isUuid), audience: fields.get('audience') === '1' },
  };
}

/**
 * `GET|HEAD /unsubscribe/<token>`: the page that asks to confirm; it changes nothing, since mail
 * scanners follow links. `POST` with `List-Unsubscribe=One-Click` (RFC 8058): unsubscribes and
 * answers a short text. `POST` from the page's form (`confirm=1`, `everything=1` to stop all
 * mail from the sender): unsubscribes and answers a confirmation page; with `preferences=1`, the
 * preference page's choices (`preferenceChoices`). A bad token is a 404.
 */
export async function handleUnsubscribe(req: IncomingMessage, res: ServerResponse, deps: Pick<Deps, 'db' | 'clock' | 'jobs' | 'encryptionKey' | 'log'>): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const match = UNSUBSCRIBE_PATH.exec(queryAt === -1 ? url : url.slice(0, queryAt));
  const method = req.method ?? 'GET';
  const head = method === 'HEAD';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return text(res, 405, 'Method not allowed', { Allow: ALLOW });
  if (!match) return page(res, 404, NOT_FOUND_PAGE, head);
  const token = match[1]!;
  if (SAMPLE_TOKENS.has(token)) return method === 'POST' ? text(res, 200, 'Nothing to unsubscribe: this is a test copy') : page(res, 200, SAMPLE_PAGE, head);

  try {
    if (method !== 'POST') {
      const state = await describeUnsubscribe(deps, token);
      return state ? page(res, 200, confirmPage(state), head) : page(res, 404, NOT_FOUND_PAGE, head);
    }
    const fields = await readFormFields(req, UNSUBSCRIBE_BODY_LIMIT_BYTES);
    // The rest of an oversized body is not read: closing lets the client's next request start clean.
    if (fields === 'too-large') return text(res, 413, `The request body is larger than ${UNSUBSCRIBE_BODY_LIMIT_BYTES} bytes`, { Connection: 'close' });
    const oneClick = fields.get('List-Unsubscribe') === 'One-Click';
    if (!oneClick && !fields.has('confirm')) return text(res, 400, 'Send List-Unsubscribe=One-Click, or confirm on the unsubscribe page');
    const everything = !oneClick && fields.get('everything') === '1';
    const preferences = !oneClick && fields.get('preferences') === '1' ? preferenceChoices(fields) : undefined;
    const origin = requestOrigin((name) => req.headers[name] as string | undefined);
    const client = { address: origin.address, userAgent: origin.userAgent };
    const outcome = await unsubscribe(deps, token, oneClick ? { everything: false, via: 'one-click', client } : { everything, via: 'page', preferences, client });
    if (!outcome) return page(res, 404, NOT_FOUND_PAGE);
    if (oneClick) return text(res, 200, 'Unsubscribed');
    return page(res, 200, preferences ? savedPage(outcome.state, everything) : donePage(outcome.state));
  } catch (error) {
    deps.log.error({ requestId: res.getHeader('X-Request-Id'), err: error }, 'unsubscribe failed');
    return page(res, 503, UNAVAILABLE_PAGE, head, { 'Retry-After': '5' });
  }
}
