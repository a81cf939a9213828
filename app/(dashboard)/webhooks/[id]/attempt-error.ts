import type { Attempt } from '../types';

/**
 * The attempt's error when it says more than the status code shown beside it: a plain non-2xx is
 * recorded as "answered 503", which would only repeat it; a redirect's or a timeout's is kept.
 */
export const errorBeyondStatus = (attempt: Pick<Attempt, 'error' | 'responseStatus'>): string | null =>
  attempt.error && attempt.error !== `answered ${attempt.responseStatus}` ? attempt.error : null;
