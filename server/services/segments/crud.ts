import { and, desc, eq } from 'drizzle-orm';
import { audiences } from '@/db/schema';
import type { Deps } from '../../deps';
import { conflict } from '../../errors';
import { newId } from '../../ids';
import { ownAudience, type AudienceRow } from '../audiences/crud';
import { byPrincipal, recordAudit } from '../audit/record';
import type { Principal } from '../shared/principal';
import { reengagementChanged, reengagementColumns, reengagementView, type ReengagementInput, type ReengagementView } from '../sunset/setting';
import { raiseRuleSegmentJoins } from '../automations/triggers/rule-segments';
import { countMatchingEach, evaluateRuleSegment, evaluateRuleSegmentJoining } from './evaluate';
import { checkedRules, type SegmentRules } from './rules';

/** A segment: an audience, with its rules when it is defined by them. */
export interface SegmentView {
  id: string;
  name: string;
  /** Its members: for a rule segment, those its rules matched when last evaluated. */
  contactCount: number;
  rules: SegmentRules | null;
  /** For a rule segment: the contacts its rules match now (a live count); null otherwise. */
  matchingNow: number | null;
  rulesEvaluatedAt: string | null;
  /** Sunset by human engagement after this many months (services/sunset); null: off. */
  sunsetAfterMonths: number | null;
  /** The re-engagement email sent before sunset (services/sunset/setting.ts); null: none. */
  sunsetReengagement: ReengagementView | null;
  createdAt: string;
}

function viewOf(row: AudienceRow, matchingNow: number | null): SegmentView {
  return {
    id: row.id,
    name: row.name,
    contactCount: row.contactCount,
    rules: row.rules,
    matchingNow,
    rulesEvaluatedAt: row.rulesEvaluatedAt?.toISOString() ?? null,
    sunsetAfterMonths: row.sunsetAfterMonths,
    sunsetReengagement: reengagementView(row),
    createdAt: row.createdAt.toISOString(),
  };
}

async function view(deps: Pick<Deps, 'db' | 'clock'>, row: AudienceRow): Promise<SegmentView> {
  if (!row.rules) return viewOf(row, null);
  const counts = await countMatchingEach(deps.db, row.organizationId, [{ id: row.id, rules: row.rules }], deps.clock.now());
  return viewOf(row, counts.get(row.id) ?? 0);
}

/** Refuses (409) a hand-made change of a rule segment's members: its rules decide them. */
export function refuseRuleSegment(audience: Pick<AudienceRow, 'name' | 'rules'>): void {
  if (audience.rules) throw conflict(`The segment "${audience.name}" takes its members from its rules: change the rules instead`);
}

/** A segment: a list (no rules: its contacts are added), or defined by rules and evaluated at once. */
export async function createSegment(
  deps: Pick<Deps, 'db' | 'clock'>,
  principal: Principal,
  input: { name: string; rules?: SegmentRules; sunsetAfterMonths?: number | null; sunsetReengagement?: ReengagementInput | null },
): Promise<SegmentView> {
  const rules = input.rules ? await checkedRules(deps.db, principal.organizationId, input.rules) : null;
  const sunsetAfterMonths = input.sunsetAfterMonths ?? null;
  const row = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const reengagement = await reengagementColumns(tx, deps, principal, input.sunsetReengagement ?? null);
    const [created] = await tx.insert(audiences).values({ id: newId(), organizationId: principal.organizationId, name: input.name, rules, sunsetAfterMonths, ...reengagement, createdAt: now }).returning();
    if (rules) await evaluateRuleSegment(tx, { id: created!.id, organizationId: principal.organizationId, rules }, now);
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'audience.created',
      target: { type: 'audience', id: created!.id, label: created!.name },
      details:
        rules || sunsetAfterMonths !== null || reengagement.sunsetReengagementFrom
          ? {
              ...(rules ? { rules: rules.conditions.length } : {}),
              ...(sunsetAfterMonths !== null ? { sunsetAfterMonths } : {}),
              ...(reengagement.sunsetReengagementFrom ? { sunsetReengagement: true } : {}),
            }
          : undefined,
    });
    return ownAudience(tx, principal, created!.id);
  });
  return view(deps, row);
}

/**
 * Renames a segment, changes a rule segment's rules (evaluated at once), or its sunset setting
 * (`sunsetAfterMonths`, null: off; the sunset run is woken to apply it). A list cannot become a
 * rule segment, nor the reverse.
 */
export async function updateSegment(
  deps: Pick<Deps, 'db' | 'clock' | 'jobs'>,
  principal: Principal,
  id: string,
  input: { name?: string; rules?: SegmentRules; sunsetAfterMonths?: number | null; sunsetReengagement?: ReengagementInput | null },
): Promise<SegmentView> {
  const current = await ownAudience(deps.db, principal, id);
  if (input.rules && !current.rules) throw conflict(`The segment "${current.name}" is a list whose contacts are added: make a new segment with rules instead`);
  const rules = input.rules ? await checkedRules(deps.db, principal.organizationId, input.rules) : undefined;
  const monthsChanged = input.sunsetAfterMonths !== undefined && input.sunsetAfterMonths !== current.sunsetAfterMonths;
  const reengagement = input.sunsetReengagement === undefined ? null : await reengagementColumns(deps.db, deps, principal, input.sunsetReengagement);
  const reengagementMoved = reengagement !== null && reengagementChanged(current, reengagement);
  const sunsetChanged = monthsChanged || reengagementMoved;
  const row = await deps.db.transaction(async (tx) => {
    await tx
      .update(audiences)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(rules ? { rules } : {}),
        ...(monthsChanged ? { sunsetAfterMonths: input.sunsetAfterMonths } : {}),
        ...(reengagementMoved ? reengagement : {}),
      })
      .where(and(eq(audiences.id, current.id), eq(audiences.organizationId, principal.organizationId)));
    if (rules) {
      const { joined } = await evaluateRuleSegmentJoining(tx, { id: current.id, organizationId: principal.organizationId, rules }, deps.clock.now());
      await raiseRuleSegmentJoins(tx, deps, principal.organizationId, current.id, joined);
    }
    await recordAudit(tx, deps, {
      organizationId: principal.organizationId,
      by: byPrincipal(principal),
      action: 'audience.updated',
      target: { type: 'audience', id: current.id, label: input.name ?? current.name },
      details: {
        fields: [...(input.name !== undefined ? ['name'] : []), ...(rules ? ['rules'] : []), ...(monthsChanged ? ['sunsetAfterMonths'] : []), ...(reengagementMoved ? ['sunsetReengagement'] : [])],
        ...(monthsChanged ? { sunsetAfterMonths: { from: current.sunsetAfterMonths, to: input.sunsetAfterMonths } } : {}),
      },
    });
    return ownAudience(tx, principal, current.id);
  });
  // The run applies a new setting now rather than at its next daily pass; a lost wake-up only waits for that pass.
  if (sunsetChanged) deps.jobs.wake('sunset', current.id, { organizationId: principal.organizationId });
  return view(deps, row);
}

export async function getSegment(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, id: string): Promise<SegmentView> {
  return view(deps, await ownAudience(deps.db, principal, id));
}

export async function listSegments(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal): Promise<SegmentView[]> {
  const rows = await deps.db.select().from(audiences).where(eq(audiences.organizationId, principal.organizationId)).orderBy(desc(audiences.id));
  const ruleSegments = rows.flatMap((row) => (row.rules ? [{ id: row.id, rules: row.rules }] : []));
  const matching = await countMatchingEach(deps.db, principal.organizationId, ruleSegments, deps.clock.now());
  return rows.map((row) => viewOf(row, matching.get(row.id) ?? null));
}
