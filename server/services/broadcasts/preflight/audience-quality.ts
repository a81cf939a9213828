import { check, type PreflightCheck } from './checks';
import { percent } from './percent';

/** The share of subscribed contacts that are suppressed or never engaged: over 10 % warns, over 30 % fails. */
export const AUDIENCE_QUALITY = { warnAbovePercent: 10, failAbovePercent: 30 } as const;

export interface AudienceCounts {
  name: string;
  /** The topic the broadcast is sent under (the counts are of the members in it), or none. */
  topic?: string | null;
  subscribed: number;
  /** Subscribed contacts whose address is on the organization's suppression list. */
  suppressed: number;
  /** Subscribed, not suppressed, received at least one earlier tracked broadcast message and never opened or clicked one. */
  unengaged: number;
  /** Of the subscribed: how many have no recorded consent, how many no confirmed consent, and whether only those confirmed get it. */
  consent?: ConsentCounts;
}

export interface ConsentCounts {
  unrecorded: number;
  unconfirmed: number;
  confirmedOnly: boolean;
}

const CLEAN_IT =
  'remove the suppressed contacts from the audience, and unsubscribe the contacts who never opened or clicked (or send them a re-engagement message first)';

/** `audience` is null when the broadcast has none any more (it was deleted). */
export function judgeAudienceQuality(audience: AudienceCounts | null): PreflightCheck {
  if (audience === null) return check('audience_quality', 'fail', 'The broadcast has no audience (it was deleted). To fix it, choose an audience for it.');
  const { name, subscribed, suppressed, unengaged } = audience;
  const inTopic = audience.topic ? ` in the topic "${audience.topic}"` : '';
  if (subscribed === 0) {
    return check(
      'audience_quality',
      'warn',
      `The audience "${name}" has no subscribed contacts${inTopic}, so the broadcast would reach nobody. To fix it, add contacts who asked for your mail, or choose another audience${inTopic ? ' or topic' : ''}.`,
    );
  }
  const poor = suppressed + unengaged;
  const found = `Of the ${subscribed} subscribed contacts of "${name}"${inTopic}, ${suppressed} are on your suppression list and ${unengaged} received earlier broadcasts without ever opening or clicking: ${percent(poor, subscribed)}`;
  if (poor * 100 > subscribed * AUDIENCE_QUALITY.failAbovePercent) {
    return check('audience_quality', 'fail', `${found}, above ${AUDIENCE_QUALITY.failAbovePercent} %: mail that nobody reads tells Gmail and Yahoo it is unwanted. Before sending, ${CLEAN_IT}.`);
  }
  if (poor * 100 > subscribed * AUDIENCE_QUALITY.warnAbovePercent) {
    return check('audience_quality', 'warn', `${found}, above ${AUDIENCE_QUALITY.warnAbovePercent} %, which weighs on your reputation with Gmail and Yahoo. To improve it, ${CLEAN_IT}.`);
  }
  return check('audience_quality', 'pass', `${found}, within ${AUDIENCE_QUALITY.warnAbovePercent} %.`);
}
