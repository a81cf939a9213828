import type { RouterOutputs } from '@/server/routers/types';

export type Checklist = RouterOutputs['overview']['checklist'];
export type SetupStep = keyof Checklist['steps'];
export type Activity = RouterOutputs['overview']['activity'];
export type ActivityDay = Activity['days'][number];
export type Failure = Activity['failures'][number];
