import type { RouterOutputs } from '@/server/routers/types';

export type Usage = RouterOutputs['usage']['current'];
export type UsageDay = Usage['days'][number];
export type Cap = Usage['caps']['domains'];
/** What `organization.changePlan` answers: the change as made, and the organization after it. */
export type PlanChangeResult = RouterOutputs['organization']['changePlan'];
/** The upgrade waiting for the operator (no payment provider configured). */
export type PlanRequest = NonNullable<RouterOutputs['organization']['planRequest']>;
