import type { RouterOutputs } from '@/server/routers/types';

export type ProcessingActivities = RouterOutputs['privacy']['processingActivities'];
export type Activity = ProcessingActivities['activities'][number];
