import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { DAY_MS } from '../shared/time';
import { EMAIL_LIMITS } from './accept/request';

/** `scheduled_at` as given by a client: null for "now", otherwise in the future and within the limit. */
export function scheduleTime(deps: Pick<Deps, 'clock'>, scheduledAt: string | undefined): Date | null {
  if (!scheduledAt) return null;
  const at = new Date(scheduledAt);
  const now = deps.clock.now().getTime();
  if (at.getTime() <= now) throw validationError('scheduled_at: must be in the future');
  if (at.getTime() > now + EMAIL_LIMITS.scheduleAheadDays * DAY_MS) {
    throw validationError(`scheduled_at: must be at most ${EMAIL_LIMITS.scheduleAheadDays} days ahead`);
  }
  return at;
}
