import type { Deps } from '../../../deps';
import { AppError } from '../../../errors';
import { isListShaped } from '../../plans/list-shape';
import { normalizeAddress, parseMailbox } from '../../shared/addresses';
import type { Principal } from '../../shared/principal';
import type { BatchOutcomes } from './batch-outcomes';
import { permitWithin, type SendPermit } from './checks';
import { loadSendContext, type SendContext } from './context';
import { draftEmail } from './draft';
import { recipientsOf, type EmailInput, type EmailRequest } from './input';
import { withTemplateContent } from './template-content';
import type { Candidate } from './within-limits';

/** One item of a batch as the edge parsed it: an email (its content given or from a template), or why its body was refused. */
export type BatchItem = { input: EmailRequest } | { invalid: string };

/** An item that passed every check but the limits. */
export interface CheckedItem extends Candidate {
  index: number;
  input: EmailInput;
  permit: SendPermit;
}

export interface CheckedBatch {
  /** Null when no item had an email to check. */
  context: SendContext | null;
  listShaped: boolean;
  passed: CheckedItem[];
  /** Per item, the content rendered when it was (the preflight shows it beside a later refusal). */
  contents: Array<EmailInput | undefined>;
}

/**
 * Every refusal of `POST /emails/batch` but the limits, item by item in request order, storing
 * nothing: the body, the template, then the account, sender domain and recipients against one
 * context read for the whole batch. Refusals go to `outcomes`; the preflight runs exactly this.
 */
export async function checkBatch(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'encryptionKey' | 'templateRenderer'>, principal: Principal, items: BatchItem[], outcomes: BatchOutcomes): Promise<CheckedBatch> {
  const requested: Array<{ index: number; request: EmailRequest }> = [];
  items.forEach((item, index) => {
    if ('input' in item) requested.push({ index, request: item.input });
    else outcomes.failed(index, new AppError('VALIDATION_ERROR', item.invalid));
  });
  const contents = new Array<EmailInput | undefined>(items.length);
  if (requested.length === 0) return { context: null, listShaped: false, passed: [], contents };
  // Content first: an item whose template is not the organization's or does not render is refused on its own.
  const rendered = await withTemplateContent(deps, principal, requested.map(({ request }) => request));
  const listShaped = isListShaped(requested.map(({ request }) => ('template' in request ? { templateId: request.template.templateId } : request)));
  const valid: Array<{ index: number; input: EmailInput }> = [];
  requested.forEach(({ index }, i) => {
    const content = rendered[i]!;
    if (content instanceof AppError) outcomes.failed(index, content);
    else {
      valid.push({ index, input: content });
      contents[index] = content;
    }
  });
  const context = await loadSendContext(
    deps,
    principal.organizationId,
    valid.map(({ input }) => parseMailbox(input.from).domain),
    valid.flatMap(({ input }) => recipientsOf(input).map(normalizeAddress)),
  );
  const now = deps.clock.now();
  const passed: CheckedItem[] = [];
  for (const { index, input } of valid) {
    try {
      const permit = await permitWithin(deps, principal, context, { from: input.from, recipients: recipientsOf(input) });
      passed.push({ index, input, permit, draft: draftEmail(principal, input, permit, { now, scheduledAt: null }), recipients: permit.deliverable.length, listShaped });
    } catch (error) {
      outcomes.failed(index, error);
    }
  }
  return { context, listShaped, passed, contents };
}
