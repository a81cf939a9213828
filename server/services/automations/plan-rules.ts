import { and, count, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { automations, type AutomationDefinition } from '@/db/schema';
import { AppError } from '../../errors';
import { planInForce } from '../plans/effective';
import { sendsEmail } from './definition';

/**
 * What the plan in force allows an automation that is about to be enabled, or to change while
 * enabled (docs/automations.md, "Limits"): one that sends is list mail, so it follows the rule for
 * broadcasts (Free sends none); and the plan caps how many are enabled at once. Read under the
 * organization's row lock, so two enablings at once are counted one after the other.
 */
export async function refuseUnlessPlanAllows(tx: Db, organizationId: string, now: Date, automation: { id: string | null; definition: AutomationDefinition }): Promise<void> {
  const plan = await planInForce(tx, organizationId, now, { lock: true });
  const sender = sendsEmail(automation.definition);
  if (sender && !plan.sendsBroadcasts) {
    throw new AppError('PLAN_LIMIT_EXCEEDED', `Automations that send email are list mail and need a paid plan, as broadcasts do: move up from ${plan.label} to enable one with a send_email step (step "${sender.key}"), or leave it disabled`);
  }
  if (plan.enabledAutomations === null) return;
  const others = and(eq(automations.organizationId, organizationId), eq(automations.status, 'enabled'), isNull(automations.deletedAt), automation.id ? ne(automations.id, automation.id) : undefined);
  const [{ enabled } = { enabled: 0 }] = await tx.select({ enabled: count() }).from(automations).where(others);
  if (enabled >= plan.enabledAutomations) {
    const n = plan.enabledAutomations;
    throw new AppError('PLAN_LIMIT_EXCEEDED', `The ${plan.label} plan allows ${n} enabled automation${n === 1 ? '' : 's'}; disable one or upgrade`);
  }
}
