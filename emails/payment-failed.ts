import { renderLayout, type RenderedEmail } from './layout';

export function paymentFailedEmail(input: { organizationName: string; graceUntil: Date; billingUrl: string }): RenderedEmail {
  const until = `${input.graceUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return renderLayout({
    subject: `Payment failed for ${input.organizationName}: sending stops on ${until.slice(0, 10)} unless it is paid`,
    heading: 'We could not collect your payment',
    paragraphs: [
      `The renewal of ${input.organizationName}'s plan could not be charged to its payment method. Sending continues until ${until}; after that the account is restricted (no new mail is accepted) until the invoice is paid.`,
      'Update the payment method or pay the open invoice from the billing page. The restriction is lifted as soon as the payment succeeds.',
    ],
    action: { label: 'Open billing', url: input.billingUrl },
    footer: 'You receive this because you own this organization or handle its billing.',
  });
}
