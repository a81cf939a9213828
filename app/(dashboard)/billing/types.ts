import type { RouterOutputs } from '@/server/routers/types';

export type Usage = RouterOutputs['usage']['current'];
export type UsageDay = Usage['days'][number];
export type Cap = Usage['caps']['domains'];
