import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { contacts, organizations } from '@/db/schema';
import { AppError } from '../../errors';
import { planInForce } from '../plans/effective';

/**
 * In one statement, so both numbers come from the same snapshot: the contacts the organization
 * stores (one per address, whatever audiences hold them), and how many of these addresses it does
 * not hold yet (what an upsert of them would add).
 */
const usageOn = perDatabase((db: Db) =>
  prepareSql<{ used: number; adding: number }>(
    db,
    null,
    sql`select
        (select ${column(organizations, 'contactCount')} from ${tableName(organizations)} where ${column(organizations, 'id')} = ${sql.placeholder('organization')}::uuid) as used,
        (select count(*)::int from unnest(${sql.placeholder('emails')}::text[]) as e(email)
          where not exists (select 1 from ${tableName(contacts, 'c')} where ${column(contacts, 'organizationId', 'c')} = ${sql.placeholder('organization')}::uuid and ${column(contacts, 'email', 'c')} = e.email)) as adding`,
  ),
);

/**
 * Refuses (403 PLAN_LIMIT_EXCEEDED) an upsert of these addresses when the ones the organization
 * does not hold yet would take the organization past its plan's contacts, counted across every audience, each address once.
 * Takes the organization's row lock first and holds it to the end of the caller's transaction,
 * so concurrent additions are counted one after the other and the cap is exact. Nothing is ever
 * deleted by the cap: an organization over it (a downgrade) just cannot add more.
 */
export async function refusePastContactCap(tx: Db, input: { organizationId: string; emails: string[]; now: Date }): Promise<void> {
  const plan = await planInForce(tx, input.organizationId, input.now, { lock: true });
  const [{ used, adding } = { used: 0, adding: 0 }] = await usageOn(tx).execute({ organization: input.organizationId, emails: input.emails });
  if (adding === 0) return;
  if (used + adding > plan.contacts) {
    const left = Math.max(plan.contacts - used, 0);
    throw new AppError(
      'PLAN_LIMIT_EXCEEDED',
      `The ${plan.label} plan stores ${plan.contacts.toLocaleString('en')} contacts across all audiences; ${left.toLocaleString('en')} ${left === 1 ? 'slot is' : 'slots are'} left and this request adds ${adding.toLocaleString('en')}. Nothing was stored; delete contacts or upgrade`,
    );
  }
}
