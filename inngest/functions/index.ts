import type { Deps } from '@/server/deps';
import type { DueWork } from '@/server/jobs/declaration';
import { DUE_WORK, DUE_WORK_LIST } from '@/server/jobs/due-work';
import type { JobKind } from '@/server/jobs/jobs';
import { cronFunction } from './cron';
import { perRowFunction } from './per-row';

/** A kind's durable functions, made from its declaration: the per-row run (if it has one), then the cron. */
export function functionsOf(work: DueWork, getDeps: () => Deps) {
  return [...(work.perRow ? [perRowFunction(work, work.perRow, getDeps)] : []), cronFunction(work, getDeps)];
}

export const functionsFor = (kind: JobKind, getDeps: () => Deps) => functionsOf(DUE_WORK[kind], getDeps);

/** Every durable function, each step calling a service function. */
export const createFunctions = (getDeps: () => Deps) => DUE_WORK_LIST.flatMap((work) => functionsOf(work, getDeps));
