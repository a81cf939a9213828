import { renderLayout, type RenderedEmail } from './layout';

/** The link that confirms an organization's new notification address: the service's own mail goes there once it is used (docs/organization-settings.md). */
export function confirmNotificationAddressEmail(input: { email: string; organizationName: string; url: string; validHours: number }): RenderedEmail {
  return renderLayout({
    subject: `Confirm the notification address of ${input.organizationName} on EU Mail`,
    heading: 'Confirm the notification address',
    paragraphs: [
      `A member of the organization "${input.organizationName}" on EU Mail asked that the service's notices (a key revoked, a failing webhook, a held broadcast, overage) be sent to ${input.email}. Open this link to confirm that this address may receive them:`,
      `The link works once and expires in ${input.validHours} hours. Until it is used, notices keep going to the address they go to now.`,
      'If you did not expect this, ignore this message: nothing is sent here unless the link is opened and confirmed.',
    ],
    action: { label: 'Confirm this address', url: input.url },
    footer: 'You receive this because a member of this organization entered your address.',
  });
}
