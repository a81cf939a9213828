import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { DAY_MS } from '../shared/time';
import { EMAIL_LIMITS } from './accept/limits';

/** A requested send time: null for "now", otherwise in the future and within the limit. */
export function scheduleTime(deps: Pick<Deps, 'clock'>, at: Date | undefined): Date | null {
  if (!at) return null;
  const now = deps.clock.now().getTime();
  if (at.getTime() <= now) throw validationError('scheduled_at: must be in the future');
  if (at.getTime() > now + EMAIL_LIMITS.scheduleAheadDays * DAY_MS) {
    throw validationError(`scheduled_at: must be at most ${EMAIL_LIMITS.scheduleAheadDays} days ahead`);
  }
  return at;
}
