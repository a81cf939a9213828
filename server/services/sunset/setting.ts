import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { domains, organizations, type audiences } from '@/db/schema';
import type { Deps } from '../../deps';
import { AppError, validationError } from '../../errors';
import { effectivePlan } from '../plans/effective';
import { AddressError, parseMailbox } from '../shared/addresses';
import type { Principal } from '../shared/principal';
import { templatesOf } from '../templates/lookup';
import { SUNSET_GRACE_DAYS_DEFAULT } from './rule';

/** The re-engagement email as a create or update asks for it (`sunset_reengagement`). */
export interface ReengagementInput {
  templateId: string;
  from: string;
  graceDays?: number;
}

/** The re-engagement email as an audience or segment read shows it; null when there is none. */
export interface ReengagementView {
  /** Null when the template was deleted since: the run then sends nothing (see `error`). */
  templateId: string | null;
  from: string;
  graceDays: number;
  /** Why the last run could not send it; null when it could (or has not run yet). */
  error: string | null;
}

type ReengagementColumns = Pick<typeof audiences.$inferInsert, 'sunsetReengagementTemplateId' | 'sunsetReengagementFrom' | 'sunsetGraceDays' | 'sunsetReengagementError'>;
type ReengagementRow = Pick<typeof audiences.$inferSelect, 'sunsetReengagementTemplateId' | 'sunsetReengagementFrom' | 'sunsetGraceDays' | 'sunsetReengagementError'>;

export function reengagementView(row: ReengagementRow): ReengagementView | null {
  if (row.sunsetReengagementFrom === null || row.sunsetGraceDays === null) return null;
  return { templateId: row.sunsetReengagementTemplateId, from: row.sunsetReengagementFrom, graceDays: row.sunsetGraceDays, error: row.sunsetReengagementError };
}

const FIELD = 'sunset_reengagement';

/**
 * The columns of a re-engagement setting, checked as the run will need them: a published template
 * of the organization (400 naming the field), a sender on one of its verified domains (400 for an
 * address that is not one, 403 DOMAIN_NOT_VERIFIED), and a plan that sends list mail (403
 * PLAN_LIMIT_EXCEEDED: a re-engagement email is list mail, as a broadcast is). `null` turns it off.
 */
export async function reengagementColumns(db: Db, deps: Pick<Deps, 'clock'>, principal: Principal, input: ReengagementInput | null): Promise<ReengagementColumns> {
  if (input === null) return { sunsetReengagementTemplateId: null, sunsetReengagementFrom: null, sunsetGraceDays: null, sunsetReengagementError: null };
  const organizationId = principal.organizationId;
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
  const plan = effectivePlan(organization, deps.clock.now());
  if (!plan.sendsBroadcasts) throw new AppError('PLAN_LIMIT_EXCEEDED', `${FIELD}: the re-engagement email is list mail, which needs a paid plan: move up from ${plan.label}`);

  const { found, unpublished } = await templatesOf(db, organizationId, [input.templateId]);
  if (unpublished.has(input.templateId)) throw validationError(`${FIELD}.template_id: the template has never been published; publish it first`);
  if (!found.has(input.templateId)) throw validationError(`${FIELD}.template_id: no template ${input.templateId} in this organization`);

  let domain: string;
  try {
    domain = parseMailbox(input.from).domain;
  } catch (error) {
    if (error instanceof AddressError) throw validationError(`${FIELD}.from: ${error.message}`);
    throw error;
  }
  const [row] = await db
    .select({ status: domains.status })
    .from(domains)
    .where(and(eq(domains.organizationId, organizationId), eq(domains.name, domain)));
  if (row?.status !== 'verified') throw new AppError('DOMAIN_NOT_VERIFIED', `${FIELD}.from: ${domain} is not a verified domain of this account; the re-engagement email is sent from one`);
  return { sunsetReengagementTemplateId: input.templateId, sunsetReengagementFrom: input.from, sunsetGraceDays: input.graceDays ?? SUNSET_GRACE_DAYS_DEFAULT, sunsetReengagementError: null };
}

/** Whether an update changes the setting (the audit log names it, and the run is woken). */
export function reengagementChanged(current: ReengagementRow, next: ReengagementColumns): boolean {
  return (
    current.sunsetReengagementTemplateId !== next.sunsetReengagementTemplateId || current.sunsetReengagementFrom !== next.sunsetReengagementFrom || current.sunsetGraceDays !== next.sunsetGraceDays
  );
}
