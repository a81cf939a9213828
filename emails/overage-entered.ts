import { renderLayout, type RenderedEmail } from './layout';

export function overageEnteredEmail(input: { organizationName: string; quota: number; monthLimit: number; rateEurCents: number; billingUrl: string }): RenderedEmail {
  const count = (n: number) => n.toLocaleString('en');
  return renderLayout({
    subject: `${input.organizationName} has passed its monthly quota: metered overage has started`,
    heading: 'Metered overage has started',
    paragraphs: [
      `${input.organizationName} has sent more than its ${count(input.quota)} emails this month. Because metered overage is on, transactional mail keeps going; each further 1,000 emails costs EUR ${(input.rateEurCents / 100).toFixed(2)}.`,
      `Sending stops at ${count(input.monthLimit)} emails this month, where the next volume up becomes the cheaper choice. Broadcasts already stopped at the quota.`,
      `See the cost so far, turn overage off or move up a volume: ${input.billingUrl}`,
    ],
    footer: 'You receive this because you own this organization. We send it the first time the organization enters overage in a month.',
  });
}
