import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { automationRuns } from '@/db/schema';
import type { Deps } from '../../deps';
import type { RunStatus } from '../../vocabulary/automations';
import type { Principal } from '../shared/principal';
import { ownAutomation } from './rows';

/** An automation at a glance (docs/automations.md, "Figures"): its runs by status, where the running ones wait, and what its emails became. */
export interface AutomationFigures {
  runs: Record<RunStatus, number>;
  /** Running runs by the step they are at, most first (a delay or a wait, mostly). */
  atStep: Array<{ stepKey: string; runs: number }>;
  /** Its emails by what became of them: every email counted once, by its status now (the email's own: delivered, bounced, …). */
  emails: { sent: number; byStatus: Record<string, number>; opened: number; clicked: number };
}

/**
 * The figures of one automation, of the caller's mode (a test key counts test runs and emails, a
 * live key live ones), over every version. Emails past their retention are counted as sent, with
 * no status (`expired`).
 */
export async function automationFigures(deps: Pick<Deps, 'db'>, principal: Principal, id: string): Promise<AutomationFigures> {
  await ownAutomation(deps.db, principal, id);
  const test = principal.mode === 'test';
  const byStatus = await deps.db
    .select({ status: automationRuns.status, runs: sql<number>`count(*)::int` })
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, id), eq(automationRuns.test, test)))
    .groupBy(automationRuns.status);
  const atStep = await deps.db
    .select({ stepKey: automationRuns.stepKey, runs: sql<number>`count(*)::int` })
    .from(automationRuns)
    .where(and(eq(automationRuns.automationId, id), eq(automationRuns.test, test), eq(automationRuns.status, 'running')))
    .groupBy(automationRuns.stepKey)
    .orderBy(sql`count(*) desc`, automationRuns.stepKey);
  const mail = await queryRows<{ status: string | null; emails: number; opened: number; clicked: number }>(
    deps.db,
    sql`select e.status, count(*)::int as emails,
        count(*) filter (where exists (select 1 from email_events h where h.email_id = a.email_id and h.type in ('email.opened', 'email.clicked') and not coalesce((h.data->>'machine')::boolean, false)))::int as opened,
        count(*) filter (where exists (select 1 from email_events h where h.email_id = a.email_id and h.type = 'email.clicked' and not coalesce((h.data->>'machine')::boolean, false)))::int as clicked
      from automation_emails a left join emails e on e.id = a.email_id
      where a.automation_id = ${id} and a.test = ${test}
      group by e.status`,
  );
  const runs: Record<RunStatus, number> = { running: 0, completed: 0, failed: 0, cancelled: 0 };
  for (const row of byStatus) runs[row.status] = row.runs;
  const statuses: Record<string, number> = {};
  for (const row of mail) statuses[row.status ?? 'expired'] = row.emails;
  return {
    runs,
    atStep,
    emails: {
      sent: mail.reduce((sum, row) => sum + row.emails, 0),
      byStatus: statuses,
      opened: mail.reduce((sum, row) => sum + row.opened, 0),
      clicked: mail.reduce((sum, row) => sum + row.clicked, 0),
    },
  };
}
