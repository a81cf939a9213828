import { check, type PreflightCheck } from './checks';
import { percent } from './percent';

/**
 * Gmail's and Yahoo's bulk-sender rule: keep spam complaints under 0.1 % of sent mail and never
 * reach 0.3 %. In basis points, so the boundaries are exact in integers.
 */
export const COMPLAINT_RATE = { windowDays: 7, minSent: 100, warnAtBasisPoints: 10, failAtBasisPoints: 30 } as const;

export interface ComplaintCounts {
  /** Live messages of the window that left (sent, delivered, bounced or complained). */
  sent: number;
  complained: number;
}

const LOWER_IT =
  'send only to people who asked for your mail, remove contacts who never open or click, and keep the unsubscribe link easy to find; the rate is measured over the last 7 days, so it falls as complaints age out';

export function judgeComplaintRate({ sent, complained }: ComplaintCounts): PreflightCheck {
  if (sent < COMPLAINT_RATE.minSent) {
    return check(
      'complaint_rate',
      'pass',
      `${sent} messages sent in the last ${COMPLAINT_RATE.windowDays} days (${complained} complaints): not enough mail yet to judge the complaint rate (it is judged from ${COMPLAINT_RATE.minSent} messages).`,
    );
  }
  const found = `${complained} spam complaint${complained === 1 ? '' : 's'} over ${sent} messages sent in the last ${COMPLAINT_RATE.windowDays} days: ${percent(complained, sent)}`;
  const basisPoints = complained * 10_000;
  if (basisPoints < sent * COMPLAINT_RATE.warnAtBasisPoints) return check('complaint_rate', 'pass', `${found}, under the 0.1 % Gmail and Yahoo ask of bulk senders.`);
  if (basisPoints < sent * COMPLAINT_RATE.failAtBasisPoints) {
    return check('complaint_rate', 'warn', `${found}, at or above the 0.1 % Gmail and Yahoo ask of bulk senders (0.3 % gets mail filtered or refused). To lower it, ${LOWER_IT}.`);
  }
  return check('complaint_rate', 'fail', `${found}, at or above 0.3 %, where Gmail and Yahoo filter or refuse bulk mail. Hold this broadcast until the rate is under 0.1 %; to lower it, ${LOWER_IT}.`);
}
