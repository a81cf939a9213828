import { spfValue } from '../records';
import { judgement, type Judgement } from './judgement';
import { unanswered, type TxtAnswer } from './dns-answer';
import { txtValues } from './tag-list';

export interface SpfInput {
  fromDomain: string;
  /** Where bounces come back (`send.<domain>`): the domain SPF is evaluated for. */
  returnPathName: string;
  /** Our mail host: the include that lets our servers send for the return path. */
  mailHost: string;
  answer: TxtAnswer;
  /** The DMARC record asks for strict SPF alignment (`aspf=s`). */
  strictAlignment: boolean;
}

const QUALIFIER_RESULT: Record<string, string> = { '-': 'fail', '~': 'softfail', '?': 'neutral' };

const bareHost = (host: string) => host.toLowerCase().replace(/\.$/, '');

/**
 * SPF as a receiver evaluates it for our servers: one `v=spf1` record at the return path, and our
 * mail host included with a passing qualifier before any `all` ends the evaluation. Aligned when
 * the return path shares the From domain's organizational domain (relaxed, DMARC's default), or
 * is the From domain itself (strict, `aspf=s`).
 */
export function judgeSpf(input: SpfInput): Judgement {
  const { returnPathName: name, mailHost } = input;
  const wanted = `publish one TXT record at ${name} with the value "${spfValue(mailHost)}"`;
  if (input.answer.kind === 'transient') return judgement('warn', unanswered(name, input.answer));
  const records = input.answer.kind === 'found' ? txtValues(input.answer.value).filter((value) => /^v=spf1(\s|$)/i.test(value.trim())) : [];
  if (records.length === 0) return judgement('fail', `No SPF record at ${name}, the return path of your messages, so they fail SPF. To fix it, ${wanted}.`);
  if (records.length > 1) {
    return judgement('fail', `${records.length} SPF records at ${name}: receivers treat that as an error (RFC 7208 permerror), so SPF fails. To fix it, keep only "${spfValue(mailHost)}".`);
  }
  const terms = records[0]!.trim().toLowerCase().split(/\s+/);
  const include = terms.findIndex((term) => /^[-+~?]?include:/.test(term) && bareHost(term.slice(term.indexOf(':') + 1)) === bareHost(mailHost));
  const all = terms.findIndex((term) => /^[-+~?]?all$/.test(term));
  if (include < 0) return judgement('fail', `The SPF record at ${name} ("${records[0]}") does not include ${mailHost}, so our servers fail SPF for it. To fix it, change it to "${spfValue(mailHost)}".`);
  if (all >= 0 && all < include) {
    return judgement('fail', `In the SPF record at ${name}, "${terms[all]}" comes before include:${mailHost}, which is then never evaluated. To fix it, put the include first: "${spfValue(mailHost)}".`);
  }
  const qualifier = QUALIFIER_RESULT[terms[include]![0]!];
  if (qualifier) {
    return judgement('fail', `The SPF record at ${name} includes ${mailHost} as "${terms[include]}", which gives ${qualifier}, not pass. To fix it, write "include:${mailHost}" without a qualifier.`);
  }
  // The return path is always a subdomain of the From domain, so relaxed alignment always holds.
  if (input.strictAlignment && bareHost(name) !== input.fromDomain) {
    return judgement(
      'warn',
      `SPF passes for ${name}, but your DMARC record asks for strict SPF alignment (aspf=s) and the return path is not ${input.fromDomain} itself, so SPF does not align; DMARC still passes through DKIM. To align both, remove aspf=s from the DMARC record (relaxed is the default).`,
    );
  }
  return judgement('pass', `The SPF record at ${name}, the return path of your messages, includes ${mailHost}, so they pass SPF; ${name} is under ${input.fromDomain}, so SPF aligns with the From domain.`);
}
