import { renderLayout, type RenderedEmail } from './layout';

/** The link that confirms a new owner's address: live sending waits on it (docs/security.md). */
export function confirmAddressEmail(input: { email: string; organizationName: string; url: string; validHours: number }): RenderedEmail {
  return renderLayout({
    subject: 'Confirm your address for EU Mail',
    heading: 'Confirm your address',
    paragraphs: [
      `Someone signed up for EU Mail as ${input.email} (organization "${input.organizationName}"). Open this link to confirm that this address is yours:`,
      `The link works once and expires in ${input.validHours} hours; you can ask for a new one in the dashboard. Until the address is confirmed, the account sends no live email (test keys work).`,
      'If you did not sign up, ignore this message: nothing will be sent on your behalf.',
    ],
    action: { label: 'Confirm my address', url: input.url },
    footer: 'You receive this because this address was given when an EU Mail account was created.',
  });
}
