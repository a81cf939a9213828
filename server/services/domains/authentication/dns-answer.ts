import type { Lookup } from '../../../net/dns';

/** The TXT records found at one name, as the judges read them. */
export type TxtAnswer = Lookup<string[][]>;

/** The sentence for a DNS that did not answer: nothing is concluded, and trying again is the remedy. */
export const unanswered = (name: string, answer: { code: string }) =>
  `The DNS did not answer for ${name} (${answer.code}), so nothing could be concluded; run the pre-flight again in a few minutes.`;
