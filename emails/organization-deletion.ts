import { renderLayout, type RenderedEmail } from './layout';

/** Tells the organization that its deletion was asked for, so that a deletion nobody meant is noticed in time (docs/organization-settings.md). */
export function organizationDeletionEmail(input: { organizationName: string; requestedBy: string; eraseAfter: Date; settingsUrl: string }): RenderedEmail {
  const day = input.eraseAfter.toISOString().slice(0, 10);
  return renderLayout({
    subject: `${input.organizationName} will be deleted on ${day}`,
    heading: `${input.organizationName} will be deleted`,
    paragraphs: [
      `${input.requestedBy} asked to delete the organization "${input.organizationName}" on EU Mail. Its API keys stopped working and it sends no more email.`,
      `On ${day} everything it holds (emails, contacts, domains, keys, webhooks, templates, its audit log) is erased for good. Until then the owner can cancel the deletion and download an export in the dashboard's settings:`,
    ],
    action: { label: 'Open the settings', url: input.settingsUrl },
    footer: 'You receive this because this address receives the notices of this organization.',
  });
}
