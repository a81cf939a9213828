import { ERROR_STATUS, type AppError } from '../../../errors';
import type { Principal } from '../../shared/principal';
import type { SendPermit } from '../accept/checks';
import type { EmailInput } from '../accept/input';
import type { LimitsVerdict, PreflightDeps, PreflightVerdict, RecipientVerdict, Refusal } from './verdict';
import { warningsOf } from './warnings/warnings';

/** What the checks reached before they accepted or refused the email. */
export interface Reached {
  deps: PreflightDeps;
  principal: Principal;
  scheduledAt: Date | null;
  /** The email with its content; undefined when its template could not give it. */
  input: EmailInput | undefined;
  fromTemplate: boolean;
  recipients: RecipientVerdict[] | null;
  permit: SendPermit | undefined;
  limits: LimitsVerdict | null;
  listShaped: boolean;
}

const EMPTY = { scheduledAt: null, recipients: null, limits: null, rendered: null, warnings: [] };

export const refusalOf = (error: AppError): Refusal => ({ error: error.message, code: error.appCode });

/** The verdict on one email: accepted when nothing refused it, with what was found on the way. */
export async function verdictOf(refusal: Refusal | null, reached?: Reached): Promise<PreflightVerdict> {
  const head = { accepted: refusal === null, status: refusal ? ERROR_STATUS[refusal.code] : 200, refusal, replayOf: null };
  if (!reached) return { ...head, ...EMPTY };
  const { input } = reached;
  return {
    ...head,
    scheduledAt: reached.scheduledAt?.toISOString() ?? null,
    recipients: reached.recipients,
    limits: reached.limits,
    rendered: input && reached.fromTemplate ? { subject: input.subject, html: input.html ?? null, text: input.text ?? null } : null,
    warnings: input ? await warningsOf(reached.deps, reached.principal.organizationId, input, { permit: reached.permit, listShaped: reached.listShaped }) : [],
  };
}
