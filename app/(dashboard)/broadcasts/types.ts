import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type BroadcastsOutputs = RouterOutputs['broadcasts'];

export type BroadcastSummary = BroadcastsOutputs['list']['data'][number];
export type Broadcast = BroadcastsOutputs['get'];
export type BroadcastCounts = Broadcast['counts'];
export type BroadcastStatus = Broadcast['status'];
export type HoldReason = NonNullable<Broadcast['heldReason']>;
export type BroadcastPreview = BroadcastsOutputs['preview'];
export type PreviewInput = RouterInputs['broadcasts']['preview'];
export type CreateBroadcastInput = RouterInputs['broadcasts']['create'];
export type UpdateBroadcastInput = RouterInputs['broadcasts']['update'];
