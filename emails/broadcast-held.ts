import { renderLayout, type RenderedEmail } from './layout';

export function broadcastHeldEmail(input: { organizationName: string; broadcastName: string; handed: number; allowance: number; broadcastUrl: string }): RenderedEmail {
  const count = (n: number) => n.toLocaleString('en');
  return renderLayout({
    subject: `Broadcast "${input.broadcastName}" is held for review`,
    heading: 'Your broadcast is held for review',
    paragraphs: [
      `${input.organizationName} has reached the ${count(input.allowance)} recipients a new account may reach in broadcasts and list-shaped batches before we review it. "${input.broadcastName}" has been handed to delivery for ${count(input.handed)} recipients and is now held.`,
      'We review new accounts to keep our sending reputation, and yours, good. When the review is done the broadcast resumes exactly where it stopped: nobody gets it twice and nobody is skipped. We will email you then.',
      `Follow it here: ${input.broadcastUrl}`,
    ],
    footer: 'You receive this because you own this organization.',
  });
}

export function broadcastResumedEmail(input: { organizationName: string; broadcastName: string; broadcastUrl: string }): RenderedEmail {
  return renderLayout({
    subject: `Broadcast "${input.broadcastName}" is sending again`,
    heading: 'Your broadcast is sending again',
    paragraphs: [
      `The review of ${input.organizationName} is done. "${input.broadcastName}" has resumed where it stopped.`,
      `Follow it here: ${input.broadcastUrl}`,
    ],
    footer: 'You receive this because you own this organization.',
  });
}
