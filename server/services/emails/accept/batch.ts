import { isDatabaseUnavailable } from '@/db/unavailable';
import type { Deps } from '../../../deps';
import { AppError, type ErrorCode } from '../../../errors';
import { normalizeAddress, parseMailbox } from '../../shared/addresses';
import { draftEmail } from './draft';
import { recipientsOf, type EmailInput, type EmailRequest } from './input';
import { storeEmails } from './store';
import { storeWithinLimits, type Candidate } from './within-limits';
import { isListShaped } from '../../plans/list-shape';
import type { Principal } from '../../shared/principal';
import { permitWithin } from './checks';
import { loadSendContext } from './context';
import { withTemplateContent } from './template-content';

export const BATCH_LIMIT = 100;

type BatchOutcome = { id: string } | { error: string; code: ErrorCode };

/** One item of a batch as the edge parsed it: an email (its content given or from a template), or why its body was refused. */
export type BatchItem = { input: EmailRequest } | { invalid: string };

/**
 * Checks each item as `POST /emails` would, in request order, then stores every accepted one in a
 * single statement: one read of the organization, its sender domains and suppressions for the
 * whole batch, and one commit. An item's refusal is its outcome and never fails the batch; only
 * a batch of no items or more than BATCH_LIMIT is refused whole.
 */
export async function sendBatch(deps: Deps, principal: Principal, items: BatchItem[], log: (error: unknown) => void): Promise<BatchOutcome[]> {
  if (items.length === 0 || items.length > BATCH_LIMIT) throw new AppError('VALIDATION_ERROR', `A batch holds 1 to ${BATCH_LIMIT} emails (got ${items.length})`);
  const outcomes: BatchOutcome[] = new Array(items.length);
  const requested: Array<{ index: number; request: EmailRequest }> = [];
  items.forEach((item, index) => {
    if ('input' in item) requested.push({ index, request: item.input });
    else outcomes[index] = { error: item.invalid, code: 'VALIDATION_ERROR' };
  });
  const failed = (index: number, error: unknown) => {
    // Not an item's fault: the whole batch is refused (503) with nothing of it stored, and sent again whole.
    if (isDatabaseUnavailable(error)) throw error;
    if (error instanceof AppError) outcomes[index] = { error: error.message, code: error.appCode };
    else {
      log(error);
      outcomes[index] = { error: 'Internal server error', code: 'INTERNAL_ERROR' };
    }
  };

  const candidates: Array<{ index: number } & Candidate> = [];
  if (requested.length > 0) {
    try {
      // Content first: an item whose template is not the organization's or does not render is refused on its own.
      const contents = await withTemplateContent(deps, principal, requested.map(({ request }) => request));
      const listShaped = isListShaped(requested.map(({ request }) => ('template' in request ? { templateId: request.template.templateId } : request)));
      const valid: Array<{ index: number; input: EmailInput }> = [];
      requested.forEach(({ index }, i) => {
        const content = contents[i]!;
        if (content instanceof AppError) failed(index, content);
        else valid.push({ index, input: content });
      });
      const context = await loadSendContext(
        deps,
        principal.organizationId,
        valid.map(({ input }) => parseMailbox(input.from).domain),
        valid.flatMap(({ input }) => recipientsOf(input).map(normalizeAddress)),
      );
      const now = deps.clock.now();
      for (const { index, input } of valid) {
        try {
          const permit = await permitWithin(deps, principal, context, { from: input.from, recipients: recipientsOf(input) });
          candidates.push({ index, draft: draftEmail(principal, input, permit, { now, scheduledAt: null }), recipients: permit.deliverable.length, listShaped });
        } catch (error) {
          failed(index, error);
        }
      }
      const { refusals, result } = await storeWithinLimits(deps, principal, context, 'transactional', candidates, (drafts, reservation) => storeEmails(deps.db, drafts, reservation));
      refusals.forEach((refusal, i) => {
        if (refusal) failed(candidates[i]!.index, refusal);
      });
      if (result.deliveriesQueued) deps.jobs.wake('webhook-delivery', []);
    } catch (error) {
      // Nothing of the batch was stored (one statement): every item still without an outcome failed.
      for (const { index } of requested) if (!outcomes[index]) failed(index, error);
      return outcomes;
    }
  }
  const drafts = candidates.filter(({ index }) => !outcomes[index]);
  for (const { index, draft } of drafts) outcomes[index] = { id: draft.row.id! };
  if (drafts.length > 0) deps.jobs.wake('email-dispatch', drafts.map(({ draft }) => draft.row.id!));
  return outcomes;
}
