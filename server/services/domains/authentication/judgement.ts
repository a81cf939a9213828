// What a check of a domain's authentication (SPF, DKIM, DMARC) concludes, as both preflights read
// it: the broadcast's checks and the email's alignment warning. Imports nothing.

export type JudgementStatus = 'pass' | 'warn' | 'fail';

export interface Judgement {
  status: JudgementStatus;
  /** What was found and, for warn and fail, exactly how to fix it. */
  detail: string;
}

export const judgement = (status: JudgementStatus, detail: string): Judgement => ({ status, detail });
