import { renderLayout, type RenderedEmail } from './layout';

/** An invitation to join an organization: the link leads to sign-in or sign-up, then into the organization (docs/teams.md). */
export function invitationEmail(input: { organizationName: string; invitedBy: string | null; role: string; url: string; validDays: number }): RenderedEmail {
  const who = input.invitedBy ? `${input.invitedBy} invited you` : 'You are invited';
  return renderLayout({
    subject: `Join ${input.organizationName} on EU Mail`,
    heading: `Join ${input.organizationName}`,
    paragraphs: [
      `${who} to join the organization "${input.organizationName}" on EU Mail as ${input.role}. Open this link to accept; if you have no account yet, you create one on the way:`,
      `The link works once and expires in ${input.validDays} days.`,
      'If you did not expect this invitation, ignore this message: nothing happens unless the link is opened and accepted.',
    ],
    action: { label: 'Accept the invitation', url: input.url },
    footer: 'You receive this because a member of this organization entered your address.',
  });
}
