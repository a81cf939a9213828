import type { BadgeTone } from '../../components/badge';
import { CANCELLABLE, DELETABLE, EDITABLE } from '@/server/vocabulary/broadcast-statuses';
import type { BroadcastStatus } from './types';

export const STATUS_STYLE: Record<BroadcastStatus, { label: string; tone: BadgeTone }> = {
  draft: { label: 'Draft', tone: 'neutral' },
  scheduled: { label: 'Scheduled', tone: 'violet' },
  sending: { label: 'Sending', tone: 'accent' },
  held: { label: 'Held', tone: 'amber' },
  sent: { label: 'Sent', tone: 'green' },
  cancelled: { label: 'Cancelled', tone: 'muted' },
  failed: { label: 'Failed', tone: 'red' },
};

/** Content and schedule may still change: the page is the composer. */
export const isEditable = (status: BroadcastStatus) => EDITABLE.includes(status);
export const isCancellable = (status: BroadcastStatus) => CANCELLABLE.includes(status);
export const isDeletable = (status: BroadcastStatus) => DELETABLE.includes(status);

/** Statuses that change by themselves (a schedule comes due, a hold lifts, the fan-out moves on): a page showing one polls. */
const LIVE = new Set<BroadcastStatus>(['scheduled', 'sending', 'held']);
export const isLive = (status: BroadcastStatus) => LIVE.has(status);
