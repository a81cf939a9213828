import { and, eq, isNull, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audiences, automations } from '@/db/schema';
import type { Deps } from '../../../deps';
import { evaluateRuleSegmentJoining } from '../../segments/evaluate';
import type { TriggerConfig } from '../trigger';
import { versionGraph } from '../runs/version-graph';
import { addedToSegment } from './contact-events';
import { raiseEvents } from './raise';

/**
 * Contacts a rule segment's evaluation made members: `contact.added_to_segment` for them, in the
 * evaluation's transaction (a segment's new rules, a broadcast's hand-off, the sweep below).
 * Membership is shared by both modes: the runs are live.
 */
export async function raiseRuleSegmentJoins(tx: Db, deps: Pick<Deps, 'clock' | 'jobs'>, organizationId: string, segmentId: string, joined: string[]): Promise<number> {
  return raiseEvents(tx, deps, { organizationId }, [addedToSegment(segmentId, joined.map((id) => ({ id })))]);
}

/**
 * `contact.added_to_segment` on a segment made by rules (docs/automations.md, "Rule segments"):
 * nobody adds a contact to it, the contact comes to match. Every few minutes each rule segment an
 * enabled automation's trigger names is evaluated (its memberships made what the rules match now,
 * as a broadcast's hand-off does), under its row's lock, and the contacts that joined start their
 * runs in the same transaction. A contact that stops matching leaves; matching again, it joins
 * again (the trigger's re-entry rule decides whether that is a second run). Answers the runs started.
 */
export async function sweepRuleSegmentTriggers(deps: Deps): Promise<number> {
  const listening = await deps.db
    .select({ id: automations.id, version: automations.currentVersion })
    .from(automations)
    .where(and(eq(automations.triggerEventName, 'contact.added_to_segment'), eq(automations.status, 'enabled'), isNull(automations.deletedAt)));
  const segmentIds = new Set<string>();
  for (const automation of listening) {
    const config = (await versionGraph(deps.db, automation.id, automation.version)).trigger.config as Extract<TriggerConfig, { segment_id: string }>;
    segmentIds.add(config.segment_id);
  }
  let started = 0;
  for (const segmentId of segmentIds) {
    if (deps.claims.stopping) break;
    started += await deps.db.transaction(async (tx) => {
      const [segment] = await tx
        .select({ id: audiences.id, organizationId: audiences.organizationId, rules: audiences.rules })
        .from(audiences)
        .where(and(eq(audiences.id, segmentId), isNotNull(audiences.rules)))
        .for('update');
      if (!segment?.rules) return 0;
      const { joined } = await evaluateRuleSegmentJoining(tx, { id: segment.id, organizationId: segment.organizationId, rules: segment.rules }, deps.clock.now());
      return raiseRuleSegmentJoins(tx, deps, segment.organizationId, segment.id, joined);
    });
  }
  return started;
}
