import type { ConfirmationOutcome } from '../services/double-opt-in';
import { escapeHtml, publicPages } from './public-page';

/* The pages of /confirm-subscription/{token}, a double opt-in link (public-page.ts: self-contained, every value escaped). */

const { csp, layout } = publicPages(`
button{display:inline-block;font:inherit;font-weight:600;color:#fff;background:#0f172a;border:0;border-radius:.5rem;padding:.6rem 1.4rem;cursor:pointer}
button:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
`);

export const CONFIRM_SUBSCRIPTION_CSP = csp;

const address = (email: string | null) => (email ? `<span class="address">${escapeHtml(email)}</span>` : 'your address');
const sender = (organization: string | null) => (organization ? escapeHtml(organization) : 'the sender');

/** GET: asks to confirm. A mail scanner following the link changes nothing; only the button does. */
export function askToConfirmPage(outcome: Pick<ConfirmationOutcome, 'email' | 'organization'>): string {
  return layout(
    'Confirm your subscription',
    `<h1>Confirm your subscription</h1><p>Confirm that you want to receive email from ${sender(outcome.organization)} at ${address(outcome.email)}.</p>` +
      '<form method="post"><input type="hidden" name="confirm" value="1"><button type="submit">Confirm my subscription</button></form>',
  );
}

export function subscriptionConfirmedPage(outcome: Pick<ConfirmationOutcome, 'email' | 'organization'>): string {
  return layout('Subscription confirmed', `<h1>Subscription confirmed</h1><p>Thank you: ${address(outcome.email)} now receives email from ${sender(outcome.organization)}.</p>`);
}

/** A link that cannot confirm (any more): what happened, and what to do. */
export function cannotConfirmPage(state: 'already' | 'expired' | 'settled' | 'unknown', outcome: Pick<ConfirmationOutcome, 'email' | 'organization'>): string {
  if (state === 'already') return layout('Already confirmed', `<h1>Already confirmed</h1><p>${address(outcome.email)} is subscribed already. There is nothing more to do.</p>`);
  if (state === 'expired') {
    return layout('Link expired', `<h1>This link has expired</h1><p>Nothing was changed. To subscribe, sign up again at ${sender(outcome.organization)} and use the link of the new email.</p>`);
  }
  if (state === 'settled') return layout('Link no longer needed', `<h1>This link is no longer needed</h1><p>The subscription of ${address(outcome.email)} was settled meanwhile. Nothing was changed.</p>`);
  return layout('Link not found', '<h1>Link not found</h1><p>This confirmation link is not valid. Check that it was copied whole.</p>');
}

export const CONFIRM_SUBSCRIPTION_UNAVAILABLE_PAGE = layout('Try again', '<h1>Something went wrong</h1><p>This page could not be opened just now. Please try again in a moment.</p>');

export const CONFIRM_SUBSCRIPTION_BUSY_PAGE = layout('Too many requests', '<h1>Too many requests</h1><p>This address has opened confirmation links too often in the last minute. Please wait a minute and try again.</p>');
