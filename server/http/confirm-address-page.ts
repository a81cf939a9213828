import type { AddressPurpose } from '../services/organizations/address-links';
import type { LinkState } from '../services/organizations/owner-confirmation';
import { escapeHtml, publicPages } from './public-page';

/* The pages of /confirm-address/{token} (public-page.ts: self-contained, every value escaped). */

const { csp, layout } = publicPages(`
button,.button{display:inline-block;font:inherit;font-weight:600;color:#fff;background:#0f172a;border:0;border-radius:.5rem;padding:.6rem 1.4rem;cursor:pointer;text-decoration:none}
button:focus-visible,.button:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
`);

export const CONFIRM_PAGE_CSP = csp;

const address = (email: string | null) => (email ? `<span class="address">${escapeHtml(email)}</span>` : 'this address');
const dashboard = (appUrl: string) => `<p><a class="button" href="${escapeHtml(appUrl)}">Open the dashboard</a></p>`;

/** GET: asks to confirm (a mail scanner following the link changes nothing). */
export function askPage(email: string | null, purpose: AddressPurpose = 'owner'): string {
  const why = purpose === 'owner' ? 'is yours, so that your EU Mail account can send live email' : 'may receive the notices of an EU Mail organization (a key revoked, a failing webhook, overage)';
  return layout(
    'Confirm your address',
    `<h1>Confirm your address</h1><p>Confirm that ${address(email)} ${why}.</p>` +
      '<form method="post"><input type="hidden" name="confirm" value="1"><button type="submit">Confirm my address</button></form>',
  );
}

export function confirmedPage(email: string | null, appUrl: string, purpose: AddressPurpose = 'owner'): string {
  const now = purpose === 'owner' ? 'your account can now send live email' : 'the organization’s notices go to it from now on';
  return layout('Address confirmed', `<h1>Address confirmed</h1><p>${address(email)} is confirmed: ${now}.</p>${dashboard(appUrl)}`);
}

/** A link that cannot confirm (any more): what happened, and what to do. */
export function unusablePage(state: Exclude<LinkState, 'valid'>, appUrl: string): string {
  if (state === 'used') {
    return layout('Link already used', `<h1>This link was used already</h1><p>Each confirmation link works once. If the address is confirmed, there is nothing more to do.</p>${dashboard(appUrl)}`);
  }
  if (state === 'expired') {
    return layout('Link expired', `<h1>This link has expired</h1><p>Sign in to the dashboard and ask for a new confirmation link.</p>${dashboard(appUrl)}`);
  }
  return layout('Link not found', '<h1>Link not found</h1><p>This confirmation link is not valid. Check that it was copied whole.</p>');
}

export const CONFIRM_UNAVAILABLE_PAGE = layout('Try again', '<h1>Something went wrong</h1><p>This page could not be opened just now. Please try again in a moment.</p>');

export const CONFIRM_BUSY_PAGE = layout('Too many requests', '<h1>Too many requests</h1><p>This address has opened confirmation links too often in the last minute. Please wait a minute and try again.</p>');
