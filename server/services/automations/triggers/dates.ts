import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automationDateSweeps, automations, contacts } from '@/db/schema';
import type { Deps } from '../../../deps';
import { DAY_MS } from '../../shared/time';
import type { TriggerConfig } from '../trigger';
import { startRuns, wakeRuns } from '../runs/start';
import { versionGraph } from '../runs/version-graph';

/** Contacts given to one start of runs: the runs of a big day go in in parts. */
const START_CHUNK = 1_000;

type DateTrigger = Extract<TriggerConfig, { event_name: 'contact.date_reached' }>;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * `contact.date_reached` (docs/automations.md, "Date triggers"): once a day (UTC) per enabled
 * automation on it, the runs of the contacts whose date property, plus `offset_days`, is today
 * (every year on the month and day with `yearly`; a 29 February on the 28th in other years).
 * Subscribed contacts only (not pending, not unsubscribed from everything). The automation's day
 * is written in the transaction that starts its runs, so the sweep run twice in a day (or by two
 * workers) starts them once. A day the sweep did not run at all is not made up. Answers the runs started.
 */
export async function sweepDateTriggers(deps: Deps): Promise<number> {
  const today = utcDay(deps.clock.now());
  const due = await deps.db
    .select({ id: automations.id })
    .from(automations)
    .leftJoin(automationDateSweeps, eq(automationDateSweeps.automationId, automations.id))
    .where(
      and(
        eq(automations.triggerEventName, 'contact.date_reached'),
        eq(automations.status, 'enabled'),
        isNull(automations.deletedAt),
        sql`${automationDateSweeps.sweptOn} is distinct from ${today}`,
      ),
    );
  let started = 0;
  for (const { id } of due) {
    if (deps.claims.stopping) break;
    started += await sweepAutomation(deps, id, today);
  }
  return started;
}

/** One automation's day, in one transaction: the day claimed (or found done), its contacts' runs started. */
async function sweepAutomation(deps: Deps, automationId: string, today: string): Promise<number> {
  const ids = await deps.db.transaction(async (tx) => {
    const [automation] = await tx
      .select()
      .from(automations)
      .where(and(eq(automations.id, automationId), eq(automations.status, 'enabled'), isNull(automations.deletedAt)))
      .for('update');
    if (!automation || automation.triggerEventName !== 'contact.date_reached') return [];
    const claimed = await tx
      .insert(automationDateSweeps)
      .values({ automationId, sweptOn: today })
      .onConflictDoUpdate({ target: automationDateSweeps.automationId, set: { sweptOn: today }, setWhere: sql`${automationDateSweeps.sweptOn} <> ${today}` })
      .returning({ automationId: automationDateSweeps.automationId });
    if (claimed.length === 0) return [];
    const config = (await versionGraph(tx, automation.id, automation.currentVersion)).trigger.config as DateTrigger;
    const reached = await contactsReaching(tx, automation.organizationId, config, today);
    const started: string[] = [];
    for (let at = 0; at < reached.length; at += START_CHUNK) {
      started.push(
        ...(await startRuns(tx, deps, {
          organizationId: automation.organizationId,
          name: 'contact.date_reached',
          payload: { property: config.property, date: today },
          test: false,
          contacts: reached.slice(at, at + START_CHUNK),
          about: { automationId: automation.id },
        })),
      );
    }
    return started;
  });
  wakeRuns(deps, ids);
  return ids.length;
}

/**
 * The subscribed contacts whose property's day (its first ten characters: a date, or a date-time
 * kept in UTC) plus the offset is today. A scan of the organization's contacts, once a day per
 * automation: no index serves a property's value.
 */
async function contactsReaching(tx: Db, organizationId: string, config: DateTrigger, today: string): Promise<Array<{ id: string; email: string }>> {
  const target = utcDay(new Date(Date.parse(`${today}T00:00:00Z`) - (config.offset_days ?? 0) * DAY_MS));
  const day = sql`substr(${contacts.properties} ->> ${config.property}, 1, 10)`;
  let matches;
  if (!config.yearly) matches = sql`${day} = ${target}`;
  else {
    const monthDay = target.slice(5);
    const year = Number(target.slice(0, 4));
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    // Every year from the date itself on; a 29 February comes on the 28th when the year has none.
    const days = monthDay === '02-28' && !leap ? ['02-28', '02-29'] : [monthDay];
    matches = sql`substr(${day}, 6, 5) in (${sql.join(days.map((one) => sql`${one}`), sql`, `)}) and ${day} <= ${target}`;
  }
  return tx
    .select({ id: contacts.id, email: contacts.email })
    .from(contacts)
    .where(and(eq(contacts.organizationId, organizationId), eq(contacts.unsubscribed, false), isNull(contacts.pendingSince), matches));
}
