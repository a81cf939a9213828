import { validationError } from '../../errors';
import type { ConfirmationSender } from './content';

/** What a contact create says of double opt-in, as its body gives it (`double_opt_in`, `confirmation`). */
export interface DoubleOptInAsk {
  doubleOptIn?: boolean;
  confirmation?: { from: string; templateId?: string | null };
}

/** The confirmation asked for, or undefined without `double_opt_in`: one needs the other (400 otherwise). */
export function doubleOptInOf(ask: DoubleOptInAsk): { sender: ConfirmationSender } | undefined {
  if (!ask.doubleOptIn) {
    if (ask.confirmation) throw validationError('confirmation: is only read with double_opt_in: true');
    return undefined;
  }
  if (!ask.confirmation) throw validationError('confirmation.from: double opt-in mails a confirmation; give a sender on one of your verified domains');
  return { sender: { from: ask.confirmation.from, templateId: ask.confirmation.templateId ?? null } };
}
