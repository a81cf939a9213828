'use client';

import { useId } from 'react';
import type { DashboardProcedure } from '@/server/vocabulary/dashboard-access';
import { useDashboardMode } from '../../lib/dashboard-mode';
import { useMay } from '../../lib/use-role';
import { useRoleRefusal } from './role-refusal';
import { useUsage } from '../billing/use-usage';

/** The plan caps a create button counts against, as the usage read names them (from the plan table). */
export type CappedResource = 'domains' | 'webhookEndpoints';

export interface CapState {
  used: number;
  limit: number;
  /** "domain", "webhook endpoint". */
  noun: string;
  planLabel: string;
  reached: boolean;
}

export interface CreateGate {
  /** The person's role may not, test mode, or the plan's cap reached: the click would be refused. */
  disabled: boolean;
  /** Why the person's role may not (null when it may, or until the role is known). */
  roleRefusal: string | null;
  /** In test mode, why this is made in Live; null in Live. */
  liveOnly: string | null;
  /** Where the organization stands against the plan's cap; null without a cap, or until the usage is read. */
  cap: CapState | null;
  /** The note's id, for the buttons' `aria-describedby`. */
  noteId: string;
}

/**
 * What a create button should say before the click: that the person's role may not (from the
 * table the server checks: `procedure`, the call the button makes); in test mode, that live state is made in Live
 * (the server refuses it otherwise); against a plan's cap, how much is used, disabled once it is
 * reached. The caps come from the usage read, which takes them from the plan table.
 */
export function useCreateGate({ procedure, liveOnly, cap }: { procedure: DashboardProcedure; liveOnly: string; cap?: { resource: CappedResource; noun: string } }): CreateGate {
  const mode = useDashboardMode();
  const may = useMay(procedure);
  const roleRefusal = useRoleRefusal(procedure);
  // Asked again whenever a page with a create button opens: a deletion elsewhere changes the count.
  const usage = useUsage({ fresh: cap !== undefined });
  const noteId = useId();
  const counted = cap && usage.data ? usage.data.caps[cap.resource] : null;
  const capState: CapState | null =
    cap && counted && counted.limit !== null
      ? { used: counted.used, limit: counted.limit, noun: cap.noun, planLabel: usage.data!.plan.label, reached: counted.used >= counted.limit }
      : null;
  const testMode = mode === 'test';
  return { disabled: !may || testMode || Boolean(capState?.reached), roleRefusal, liveOnly: testMode ? liveOnly : null, cap: capState, noteId };
}
