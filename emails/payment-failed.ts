import { renderLayout, type RenderedEmail } from './layout';

/** A renewal could not be collected: sending goes on until the grace period ends, then the account is restricted until paid (docs/billing.md). */
export function paymentFailedEmail(input: { organizationName: string; graceUntil: Date; billingUrl: string }): RenderedEmail {
  const day = input.graceUntil.toISOString().slice(0, 10);
  return renderLayout({
    subject: `Payment for ${input.organizationName} failed: please update the payment method by ${day}`,
    heading: 'We could not collect your renewal',
    paragraphs: [
      `The payment for ${input.organizationName}'s plan on EU Mail did not go through. Your mail keeps going as usual until ${day}.`,
      `If the renewal is still unpaid then, sending is restricted until it is paid: the API refuses new messages and scheduled broadcasts wait. Paying lifts the restriction at once. The card company or bank usually says why a payment was declined; the payment page lets you use another card or account.`,
    ],
    action: { label: 'Update the payment method', url: input.billingUrl },
    footer: 'You receive this because you own this organization or handle its billing.',
  });
}

/** The grace period after a failed renewal ended unpaid: sending is restricted until the payment arrives. */
export function restrictedForNonPaymentEmail(input: { organizationName: string; failedAt: Date; billingUrl: string }): RenderedEmail {
  return renderLayout({
    subject: `Sending is restricted for ${input.organizationName} until the renewal is paid`,
    heading: 'Sending is restricted until the renewal is paid',
    paragraphs: [
      `The renewal of ${input.organizationName}'s plan has been unpaid since ${input.failedAt.toISOString().slice(0, 10)}, and its grace period has ended. The API now refuses new messages; nothing already delivered or stored is lost.`,
      'Pay the open invoice or change the payment method, and sending resumes the moment the payment is confirmed.',
    ],
    action: { label: 'Pay the renewal', url: input.billingUrl },
    footer: 'You receive this because you own this organization or handle its billing.',
  });
}
