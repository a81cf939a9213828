import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '../deps';
import { AppError, clientErrorOf, ERROR_STATUS, validationError, type ErrorCode } from '../errors';
import { FILL_TIME_FIELD, formByKey, HONEYPOT_FIELD, submitForm, submittedAddress, type FormRow, type RawSubmission } from '../services/forms';
import { clientAddress } from './client-address';
import { multipartFormFields, readUpTo } from './form-body';
import { FORM_PAGE_CSP, formErrorPage, thanksPage } from './form-page';
import { checkJsonBody } from './hostile-input';
import { sendPage } from './public-page';
import type { FormSubmitLimits } from './public-entry-limit';
import { requestOrigin } from './request-origin';
import { sendError, sendJson } from './respond';

/** `POST /f/{formKey}`: a hosted sign-up form's public endpoint (docs/consent.md, "Forms"). */
export const FORM_PATH = '/f';
const FORM_KEY_PATH = /^\/f\/([A-Za-z0-9_-]{1,64})\/?$/;

/** A sign-up is an address, two names and a few values: a few hundred bytes. */
export const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Faster than this from the page showing the form to its sending is a script, not a person typing
 * an address (the snippet's `_fill_ms`, measured by the browser: docs/consent.md).
 */
export const MIN_FILL_MS = 2_000;

type Kind = 'json' | 'form';

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const contentTypeOf = (req: IncomingMessage) => (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** A JSON body gets JSON answers; a browser's form post gets redirects or pages. */
const kindOf = (req: IncomingMessage): Kind => (contentTypeOf(req) === 'application/json' ? 'json' : 'form');

const retryAfter = (ms: number) => ({ 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) });

/** The refusal, in the way the client asked: `{error, code}`, or the form's error redirect (with `?error=CODE`), or a page. */
function refuse(res: ServerResponse, kind: Kind, form: FormRow | null, code: ErrorCode, message: string, headers: Record<string, string> = {}): void {
  if (kind === 'json') return sendError(res, code, message, headers);
  if (form?.errorUrl) {
    const target = new URL(form.errorUrl);
    target.searchParams.set('error', code);
    res.statusCode = 303;
    res.setHeader('Location', target.toString());
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.end();
    return;
  }
  return sendPage(res, FORM_PAGE_CSP, ERROR_STATUS[code], formErrorPage(message), false, headers);
}

/** The one success answer: the same for a new address, a subscribed one and one that opted out before. */
function accepted(res: ServerResponse, kind: Kind, form: FormRow): void {
  if (kind === 'json') {
    return sendJson(res, 200, { message: form.doubleOptIn ? 'Thank you: check your inbox to confirm your subscription' : 'Thank you: your subscription is recorded' });
  }
  if (form.successUrl) {
    res.statusCode = 303;
    res.setHeader('Location', form.successUrl);
    res.end();
    return;
  }
  return sendPage(res, FORM_PAGE_CSP, 200, thanksPage(form.doubleOptIn));
}

/** The Origin a browser sent, or null for a client that sent none (no browser page: CORS does not apply). */
const originOf = (req: IncomingMessage) => header(req, 'origin') ?? null;

/** Whether a page of `origin` may post to the form. A browser always sends Origin on a cross-origin POST. */
const originAllowed = (form: FormRow, origin: string | null) => origin === null || form.allowedOrigins.includes(origin.toLowerCase());

function allowOrigin(res: ServerResponse, origin: string | null): void {
  res.setHeader('Vary', 'Origin');
  if (origin !== null) res.setHeader('Access-Control-Allow-Origin', origin);
}

/**
 * Percent-decoding that refuses what a browser never sends (a broken escape, bytes that are not
 * UTF-8), where URLSearchParams would quietly turn it into replacement characters.
 */
function urlEncodedFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw validationError('The form body has a malformed percent-encoding');
    }
  };
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const name = decode(at === -1 ? pair : pair.slice(0, at));
    if (!fields.has(name)) fields.set(name, at === -1 ? '' : decode(pair.slice(at + 1)));
  }
  return fields;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The body as fields: JSON (an object), form-encoded or multipart; anything else is 415. */
function fieldsOf(req: IncomingMessage, bytes: Buffer): Record<string, unknown> {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw validationError('The body is not valid UTF-8');
  }
  const type = contentTypeOf(req);
  let fields: Record<string, unknown>;
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw validationError('The body is not valid JSON');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw validationError('The body must be a JSON object');
    fields = parsed as Record<string, unknown>;
  } else if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
    const pairs = type === 'multipart/form-data' ? multipartFormFields(text, header(req, 'content-type') ?? '') : urlEncodedFields(text);
    fields = Object.create(null) as Record<string, unknown>;
    const properties: Record<string, unknown> = Object.create(null);
    for (const [name, value] of pairs) {
      if (name.startsWith('properties.')) properties[name.slice('properties.'.length)] = value;
      else fields[name] = value;
    }
    fields.properties = properties;
  } else {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as application/x-www-form-urlencoded, multipart/form-data or application/json');
  }
  checkJsonBody(fields);
  return fields;
}

/** Sent by a script: the honeypot filled, or faster than a person fills the form (or without the time at all). */
function botSign(fields: Record<string, unknown>): 'honeypot' | 'too-fast' | null {
  const trap = fields[HONEYPOT_FIELD];
  if (typeof trap === 'string' ? trap !== '' : trap !== undefined && trap !== null) return 'honeypot';
  const raw = fields[FILL_TIME_FIELD];
  const fillMs = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(fillMs) || fillMs < MIN_FILL_MS) return 'too-fast';
  return null;
}

const rawSubmission = (fields: Record<string, unknown>): RawSubmission => ({
  email: fields.email,
  firstName: fields.first_name,
  lastName: fields.last_name,
  properties: fields.properties !== null && typeof fields.properties === 'object' ? (fields.properties as Record<string, unknown>) : undefined,
});

/** OPTIONS: the browser asks whether a page of its origin may post JSON here. */
async function preflight(req: IncomingMessage, res: ServerResponse, form: FormRow | null): Promise<void> {
  const origin = originOf(req);
  if (!form || origin === null || !originAllowed(form, origin)) {
    res.statusCode = form ? 403 : 404;
    res.setHeader('Vary', 'Origin');
    res.end();
    return;
  }
  allowOrigin(res, origin);
  res.setHeader('Access-Control-Allow-Methods', 'POST');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.setHeader('Access-Control-Max-Age', '600');
  res.statusCode = 204;
  res.end();
}

/**
 * `OPTIONS|POST /f/{formKey}`. The steps, each refusing early and cheaply:
 *   1. the client address's bucket (before the database is asked anything)
 *   2. the form, by its public key (404 otherwise)
 *   3. the page's origin, one of the form's allowed origins (403 without CORS headers otherwise)
 *   4. the form's bucket
 *   5. the body, at most FORM_BODY_LIMIT_BYTES, in a type and encoding a browser sends
 *   6. the honeypot (a bot is answered as a person would be, and nothing is stored) and the fill time
 *   7. the submitted address, and its bucket
 *   8. the submission (services/forms/submit.ts): values, MX, opt-in, ledger
 */
export async function handleForm(req: IncomingMessage, res: ServerResponse, deps: Deps, limits: FormSubmitLimits): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const match = FORM_KEY_PATH.exec(queryAt === -1 ? url : url.slice(0, queryAt));
  const method = req.method ?? 'GET';
  const kind = kindOf(req);
  res.setHeader('Cache-Control', 'no-store');
  if (method !== 'POST' && method !== 'OPTIONS') {
    res.setHeader('Allow', 'POST, OPTIONS');
    return sendError(res, 'METHOD_NOT_ALLOWED', 'A form takes POST');
  }
  const client = limits.perClient.take(clientAddress(req, deps.config.trustedProxyCidrs));
  if (!client.allowed) return refuse(res, kind, null, 'RATE_LIMITED', 'Too many submissions from your address; try again in a minute', { ...retryAfter(client.retryAfterMs), Connection: 'close' });
  let form: FormRow | null = null;
  try {
    form = match ? await formByKey(deps.db, match[1]!) : null;
    if (method === 'OPTIONS') return await preflight(req, res, form);
    if (!form) return refuse(res, kind, null, 'NOT_FOUND', 'This form does not exist (any more)');
    const origin = originOf(req);
    if (!originAllowed(form, origin)) return refuse(res, kind, null, 'FORBIDDEN', 'This form does not take submissions from this site');
    allowOrigin(res, origin);
    const forForm = limits.perForm.takeKey(form.id);
    if (!forForm.allowed) return refuse(res, kind, form, 'RATE_LIMITED', 'This form is busy; try again in a minute', retryAfter(forForm.retryAfterMs));
    const declared = Number(header(req, 'content-length'));
    const bytes = Number.isFinite(declared) && declared > FORM_BODY_LIMIT_BYTES ? (req.resume(), null) : await readUpTo(req, FORM_BODY_LIMIT_BYTES);
    if (bytes === null) return refuse(res, kind, form, 'PAYLOAD_TOO_LARGE', `The form is larger than ${FORM_BODY_LIMIT_BYTES / 1024} KiB`, { Connection: 'close' });
    const fields = fieldsOf(req, bytes);
    const bot = botSign(fields);
    if (bot === 'honeypot') return accepted(res, kind, form);
    if (bot === 'too-fast') return refuse(res, kind, form, 'VALIDATION_ERROR', 'The form was sent faster than a person fills it in; wait a moment and send it again');
    const email = submittedAddress(fields.email);
    const forEmail = limits.perEmail.takeKey(email);
    if (!forEmail.allowed) return refuse(res, kind, form, 'RATE_LIMITED', 'This address was submitted too often; try again later', retryAfter(forEmail.retryAfterMs));
    const from = requestOrigin((name) => header(req, name));
    await submitForm(deps, form, email, rawSubmission(fields), { address: from.address, userAgent: from.userAgent?.slice(0, 512) ?? null });
    return accepted(res, kind, form);
  } catch (error) {
    const known = clientErrorOf(error);
    if (known) return refuse(res, kind, form, known.appCode, known.message, known.headers);
    deps.log.error({ requestId: res.getHeader('X-Request-Id'), err: error }, 'form submission failed');
    return refuse(res, kind, form, 'INTERNAL_ERROR', 'Something went wrong on our side; try again later');
  }
}
