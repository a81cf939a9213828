import { renderLayout, type RenderedEmail } from './layout';

export function overageEnteredEmail(input: { organizationName: string; quota: number; monthLimit: number; rateEurCents: number; billingUrl: string }): RenderedEmail {
  const count = (n: number) => n.toLocaleString('en');
  return renderLayout({
    subject: `${input.organizationName} has passed its monthly quota: metered overage has started`,
    heading: 'Metered overage has started',
    // "Emails" after a large number three times is SpamAssassin's BIGNUM_EMAILS_MANY (a list seller's pitch): "messages" says the same.
    paragraphs: [
      `${input.organizationName} has sent more than its monthly quota of ${count(input.quota)} messages. Because metered overage is on, transactional mail keeps going; each further 1,000 messages costs EUR ${(input.rateEurCents / 100).toFixed(2)}.`,
      `Sending stops at ${count(input.monthLimit)} messages this month, where the next volume up becomes the cheaper choice. Broadcasts already stopped at the quota.`,
      `See the cost so far, turn overage off or move up a volume: ${input.billingUrl}`,
    ],
    footer: 'You receive this because you own this organization. We send it the first time the organization enters overage in a month.',
  });
}
