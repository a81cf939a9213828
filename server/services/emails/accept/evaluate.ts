import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import { isListShaped } from '../../plans/list-shape';
import { normalizeAddress, parseMailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import { scheduleTime } from '../schedule-time';
import { permitWithin, type SendPermit } from './checks';
import { loadSendContext, type SendContext } from './context';
import { draftEmail } from './draft';
import { findByIdempotencyKey } from './idempotency';
import { recipientsOf, type EmailRequest, type SendEmailInput } from './input';
import type { EmailDraft } from './store';
import { withTemplateContent } from './template-content';
import type { Candidate } from './within-limits';
import { flatMapped } from '../../shared/flat-mapped';

/**
 * One email handed to the door, as its way in has it:
 * - `request`: to be checked by the door (the API, a batch item, the SMTP relay): the content, the
 *   send time, then the account, sender domain and recipients, in the spec's order;
 * - `invalid`: refused at the edge already (a batch item whose body did not parse);
 * - `drafted`: checked by its way in (a broadcast's copy: the chunk's and the test send's own
 *   rules), taken from the limits on. `outsideLimits` stores it without counting it (a copy
 *   recorded as failed, which is never sent).
 */
export type AdmitItem =
  | { request: EmailRequest<SendEmailInput> }
  | { invalid: string }
  | { drafted: Candidate; outsideLimits?: boolean };

/** What the checks found of one item: as far as they got, and the first refusal when one applied. */
export interface ItemEvaluation {
  /** The email with its content; absent when the item was refused before it had any. */
  input?: SendEmailInput;
  scheduledAt?: Date | null;
  permit?: SendPermit;
  /** The email an Idempotency-Key took within 24 hours: the answer, with nothing stored. */
  replayOf?: string;
  /** Why it is refused before the limits (an AppError, or a fault of ours). */
  refusal?: unknown;
  /** Passed every check but the limits. */
  candidate?: Candidate;
  outsideLimits?: boolean;
}

export interface Evaluation {
  /** What the checks read (null when no item got as far as the checks that read it). */
  context: SendContext | null;
  listShaped: boolean;
  items: ItemEvaluation[];
}

export type EvaluateDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey' | 'templateRenderer'>;

/**
 * Every refusal but the limits, item by item in request order, storing nothing: a replayed
 * Idempotency-Key, the template rendered, the send time, then the account, sender domain and
 * recipients against one context read for all the items. The door (admit.ts) and the preflight
 * both run exactly this and read its result.
 */
export async function evaluate(deps: EvaluateDeps, principal: Principal, items: AdmitItem[], options: { context?: SendContext } = {}): Promise<Evaluation> {
  const evaluated: ItemEvaluation[] = items.map((item) => {
    if ('invalid' in item) return { refusal: new AppError('VALIDATION_ERROR', item.invalid) };
    if ('drafted' in item) return { candidate: item.drafted, outsideLimits: item.outsideLimits === true };
    return {};
  });
  const requested: Array<{ index: number; request: EmailRequest<SendEmailInput> }> = [];
  for (const [index, item] of items.entries()) if ('request' in item) requested.push({ index, request: item.request });
  if (requested.length === 0) return { context: options.context ?? null, listShaped: false, items: evaluated };

  // An Idempotency-Key comes with a single send only; a repeat within 24 hours is answered by the
  // first email. A key another domain's email took (a pinned key's 409) refuses the request itself.
  for (const { index, request } of requested) {
    if (!request.idempotencyKey) continue;
    const replayOf = await findByIdempotencyKey(deps, principal, request.idempotencyKey);
    if (replayOf) evaluated[index]!.replayOf = replayOf;
  }
  const pending = requested.filter(({ index }) => !settled(evaluated[index]!));
  // Content first: an item whose template is not the organization's or does not render is refused on its own.
  const rendered = await withTemplateContent(
    deps,
    principal,
    pending.map(({ request }) => request),
  );
  const listShaped = isListShaped(requested.map(({ request }) => ('template' in request ? { templateId: request.template.templateId } : request)));
  const valid: Array<{ index: number; input: SendEmailInput; recipients: string[] }> = [];
  pending.forEach(({ index }, i) => {
    const content = rendered[i]!;
    const item = evaluated[index]!;
    if (content instanceof AppError) item.refusal = content;
    else {
      item.input = content;
      try {
        item.scheduledAt = scheduleTime(deps, content.scheduledAt);
        valid.push({ index, input: content, recipients: recipientsOf(content) });
      } catch (error) {
        item.refusal = error;
      }
    }
  });
  if (valid.length === 0) return { context: options.context ?? null, listShaped, items: evaluated };

  const context =
    options.context ??
    (await loadSendContext(
      deps,
      principal.organizationId,
      valid.map(({ input }) => parseMailbox(input.from).domain),
      flatMapped(valid, ({ recipients }) => recipients.map(normalizeAddress)),
    ));
  const now = deps.clock.now();
  for (const { index, input, recipients } of valid) {
    const item = evaluated[index]!;
    try {
      const permit = (item.permit = await permitWithin(deps, principal, context, { from: input.from, recipients }));
      const draft: EmailDraft = draftEmail(principal, input, permit, { now, scheduledAt: item.scheduledAt ?? null, idempotencyKey: input.idempotencyKey });
      if (input.submittedVia) draft.row.submittedVia = input.submittedVia;
      item.candidate = { draft, recipients: permit.deliverable.length, listShaped };
    } catch (error) {
      item.refusal = error;
    }
  }
  return { context, listShaped, items: evaluated };
}

const settled = (item: ItemEvaluation) => item.refusal !== undefined || item.replayOf !== undefined;
