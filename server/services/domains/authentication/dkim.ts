import type { Reader } from '../../shared/reader';
import { domainFixes } from '../fix-it';
import { dkimValue } from '../records';
import { judgement, type Judgement } from './judgement';
import { unanswered, type TxtAnswer } from './dns-answer';
import { parseTagList, txtValues } from './tag-list';

export interface DkimInput {
  fromDomain: string;
  /** `<selector>._domainkey.<domain>` of the domain's active key. */
  name: string;
  /** Base64 of the active key's public half, as published in `p=`. */
  publicKey: string;
  answer: TxtAnswer;
  /** Who reads the fix: an application is told the API call, a person the page. */
  reader: Reader;
}

/**
 * DKIM as a receiver verifies our signature: the record at the active key's selector carries that
 * key. Messages are signed with d= the sending domain, which is the From domain, so a passing
 * signature aligns under relaxed and strict alignment alike.
 */
export function judgeDkim(input: DkimInput): Judgement {
  const { name } = input;
  const wanted = `publish a TXT record at ${name} with the value "${dkimValue(input.publicKey)}" (${domainFixes(input.reader).dkimStrings})`;
  if (input.answer.kind === 'transient') return judgement('warn', unanswered(name, input.answer));
  if (input.answer.kind === 'absent') return judgement('fail', `No DKIM record at ${name}, so receivers cannot verify our signature on your messages. To fix it, ${wanted}.`);
  const keys = txtValues(input.answer.value)
    .map(parseTagList)
    .filter((tags) => (tags.get('v') ?? 'DKIM1') === 'DKIM1')
    .map((tags) => tags.get('p'));
  if (keys.includes(input.publicKey)) {
    return judgement('pass', `The DKIM record at ${name} carries the domain's signing key; messages are signed with d=${input.fromDomain}, the From domain, so DKIM aligns.`);
  }
  if (keys.includes('')) return judgement('fail', `The DKIM record at ${name} has an empty p=, which revokes the key, so our signature fails. To fix it, ${wanted}.`);
  return judgement('fail', `The DKIM record at ${name} carries another key than the one we sign with, so our signature fails. To fix it, replace it: ${wanted}.`);
}
