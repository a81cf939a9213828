import { sql, type SQL } from 'drizzle-orm';
import { RECIPIENT_STATUSES, type RecipientStatus } from '../../vocabulary/email-statuses';

/** Recipient states the pipeline still works on. */
export const IN_FLIGHT: ReadonlySet<string> = new Set<RecipientStatus>(['pending', 'deferred']);
const FINAL = RECIPIENT_STATUSES.filter((status) => !IN_FLIGHT.has(status));

// The statuses are this module's own constants, never input: safe to write as literals.
const literal = (status: RecipientStatus) => sql.raw(`'${status}'`);
const literals = (statuses: readonly RecipientStatus[]) => sql.raw(statuses.map((status) => `'${status}'`).join(', '));

/**
 * The email's status from its recipients' states: an aggregate over one email's recipient rows,
 * `status` naming their status column (`aggregateEmailStatus(sql\`r.status\`)` with `group by
 * r.email_id`, or as a scalar sub-select). One rule, in SQL, because the statements that change a
 * recipient (the dispatch outcome, a bounce report) derive the email's status from the rows as
 * they stand when the statement holds them:
 *
 *   1. any recipient complained → `complained` (whatever the others are doing);
 *   2. any recipient still pending or deferred → null: no outcome yet, the pipeline's own status
 *      (queued, sending, sent) stands;
 *   3. anyone got it → `delivered`; else anyone bounced → `bounced`; else anyone failed → `failed`;
 *   4. nobody was ever sent to (all suppressed) → `suppressed`.
 *
 * So a one-recipient email delivered and then bounced by a DSN is `bounced`; with several
 * recipients the email is `delivered` if any of them got it, and each bounce is in its history and
 * on the suppression list. A state this rule does not know counts as in flight, so nothing is
 * finalised on it. An email without recipients has no status to derive (null).
 */
export function aggregateEmailStatus(status: SQL): SQL<string | null> {
  return sql<string | null>`case
    when bool_or(${status} = ${literal('complained')}) then ${literal('complained')}
    when count(*) = 0 or bool_or(${status} not in (${literals(FINAL)})) then null
    when bool_or(${status} = ${literal('delivered')}) then ${literal('delivered')}
    when bool_or(${status} = ${literal('bounced')}) then ${literal('bounced')}
    when bool_or(${status} = ${literal('failed')}) then ${literal('failed')}
    else ${literal('suppressed')} end`;
}
