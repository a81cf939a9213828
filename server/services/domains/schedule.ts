import { HOUR_MS as HOUR, MINUTE_MS as MINUTE } from '../shared/time';

/** A verification chain polls for this long before the domain is marked failed. */
export const CHAIN_LIMIT_MS = 72 * HOUR;
/** A verified domain's records are read again this often, so a loss is noticed. */
export const RECHECK_VERIFIED_MS = 6 * HOUR;
/** After the DNS could not answer, try again this soon. */
export const TRANSIENT_RETRY_MS = 5 * MINUTE;

/** Every minute while records are usually being published, then less often as the chain ages. */
export function chainDelayMs(elapsedMs: number): number {
  if (elapsedMs < 10 * MINUTE) return MINUTE;
  if (elapsedMs < HOUR) return 5 * MINUTE;
  if (elapsedMs < 6 * HOUR) return 15 * MINUTE;
  return HOUR;
}
