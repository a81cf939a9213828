'use client';

import { useId } from 'react';
import { useDashboardMode } from '../../lib/dashboard-mode';
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
  /** Test mode, or the plan's cap reached: the click would be refused. */
  disabled: boolean;
  /** In test mode, why this is made in Live; null in Live. */
  liveOnly: string | null;
  /** Where the organization stands against the plan's cap; null without a cap, or until the usage is read. */
  cap: CapState | null;
  /** The note's id, for the buttons' `aria-describedby`. */
  noteId: string;
}

/**
 * What a create button should say before the click: in test mode, that live state is made in Live
 * (the server refuses it otherwise); against a plan's cap, how much is used, disabled once it is
 * reached. The caps come from the usage read, which takes them from the plan table.
 */
export function useCreateGate({ liveOnly, cap }: { liveOnly: string; cap?: { resource: CappedResource; noun: string } }): CreateGate {
  const mode = useDashboardMode();
  // Asked again whenever a page with a create button opens: a deletion elsewhere changes the count.
  const usage = useUsage({ fresh: cap !== undefined });
  const noteId = useId();
  const counted = cap && usage.data ? usage.data.caps[cap.resource] : null;
  const capState: CapState | null =
    cap && counted && counted.limit !== null
      ? { used: counted.used, limit: counted.limit, noun: cap.noun, planLabel: usage.data!.plan.label, reached: counted.used >= counted.limit }
      : null;
  const testMode = mode === 'test';
  return { disabled: testMode || Boolean(capState?.reached), liveOnly: testMode ? liveOnly : null, cap: capState, noteId };
}
