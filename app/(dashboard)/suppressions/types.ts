import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type SuppressionsOutputs = RouterOutputs['suppressions'];

export type Suppression = SuppressionsOutputs['list']['data'][number];
export type ListSuppressionsInput = RouterInputs['suppressions']['list'];
/** What a batch answers: new entries, those already listed, and the addresses refused. */
export type SuppressionImport = SuppressionsOutputs['batch'];
export type InvalidAddress = SuppressionImport['invalid'][number];
