import type { Attempt } from '../types';

/** Why an attempt was made, in words. */
export const TRIGGER_LABELS: Record<Attempt['trigger'], string> = {
  scheduled: 'Scheduled',
  replay: 'Replay',
  test: 'Test event',
};
