import { renderLayout, type RenderedEmail } from './layout';

/** The link that sets a new password, mailed to an account's address on request (docs/accounts.md). */
export function passwordResetEmail(input: { email: string; url: string; validMinutes: number }): RenderedEmail {
  return renderLayout({
    subject: 'Reset your EU Mail password',
    heading: 'Reset your password',
    paragraphs: [
      `Someone asked to reset the password of the EU Mail account ${input.email}. Open this link to choose a new one:`,
      `The link works once and expires in ${input.validMinutes} minutes; you can ask for a new one on the sign-in page. Setting a new password signs the account out everywhere.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ],
    action: { label: 'Choose a new password', url: input.url },
    footer: 'You receive this because a password reset was asked for this address on EU Mail.',
  });
}
