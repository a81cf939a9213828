import type { RouterOutputs } from '@/server/routers/types';

export type Member = RouterOutputs['team']['members'][number];
export type Invitation = RouterOutputs['team']['invitations'][number];
