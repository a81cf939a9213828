import type { UnsubscribeState } from '../services/unsubscribe/vocabulary';
import { escapeHtml, publicPages } from './public-page';

/* The pages of /unsubscribe/{token} (public-page.ts: self-contained, every value escaped). */

const { csp, layout } = publicPages(`
label{display:flex;gap:.6rem;align-items:flex-start;margin:0 0 1.25rem;cursor:pointer}
input[type=checkbox]{margin:.3rem 0 0;width:1.05rem;height:1.05rem;flex:none}
button{font:inherit;font-weight:600;color:#fff;background:#c62828;border:0;border-radius:.5rem;padding:.6rem 1.4rem;cursor:pointer}
button:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
.quiet{color:#5f6368;font-size:.9rem}
@media (prefers-color-scheme:dark){.quiet{color:#9aa0a6}}
`);

/** The only style the page may apply: its own sheet, by hash; no script, nothing from elsewhere, no framing. */
export const PAGE_CSP = csp;

type Listed = Extract<UnsubscribeState, { email: string }>;

const address = (state: Listed) => `<span class="address">${escapeHtml(state.email)}</span>`;
const list = (state: Listed) => `<strong>${escapeHtml(state.audienceName)}</strong> from <strong>${escapeHtml(state.organizationName)}</strong>`;

const stopAllBox = (state: Listed) =>
  `<label><input type="checkbox" name="everything" value="1"><span>Also stop all other email from ${escapeHtml(state.organizationName)}</span></label>`;

const form = (fields: string, button: string) => `<form method="post"><input type="hidden" name="confirm" value="1">${fields}<button type="submit">${button}</button></form>`;

const stoppedAllLine = (state: Listed) => `<p>${address(state)} gets no other email from ${escapeHtml(state.organizationName)} either.</p>`;

/** GET: asks to confirm (a scanner following the link changes nothing), or says it is done already. */
export function confirmPage(state: UnsubscribeState): string {
  if (state.status === 'contact-deleted') return nothingToDoPage();
  if (state.status === 'subscribed') {
    return layout(
      'Unsubscribe',
      `<h1>Unsubscribe</h1><p>Stop sending ${address(state)} the emails of ${list(state)}?</p>${form(stopAllBox(state), 'Unsubscribe')}`,
    );
  }
  return layout(
    'Already unsubscribed',
    `<h1>Already unsubscribed</h1><p>${address(state)} is unsubscribed from ${list(state)} and gets no more of its emails.</p>` +
      (state.stoppedAll ? stoppedAllLine(state) : form(stopAllBox(state), 'Unsubscribe')),
  );
}

/** After the form: what was done, and the stop-all choice if it was not taken. */
export function donePage(state: UnsubscribeState): string {
  if (state.status === 'contact-deleted') return nothingToDoPage();
  return layout(
    'Unsubscribed',
    `<h1>You are unsubscribed</h1><p>${address(state)} will get no more emails of ${list(state)}.</p>` +
      (state.stoppedAll
        ? stoppedAllLine(state)
        : form('<input type="hidden" name="everything" value="1">', `Stop all email from ${escapeHtml(state.organizationName)}`)) +
      '<p class="quiet">It may take a moment for emails already on their way to stop.</p>',
  );
}

export function nothingToDoPage(): string {
  return layout(
    'Nothing to unsubscribe from',
    '<h1>Nothing to unsubscribe from</h1><p>This address is no longer on the mailing list this message was sent to, so it will get no more of its emails.</p>',
  );
}

export const NOT_FOUND_PAGE = layout('Link not found', '<h1>Link not found</h1><p>This unsubscribe link is not valid. Check that it was copied whole.</p>');

/** Where the unsubscribe link of a test copy or a preview leads: it names no contact. */
export const SAMPLE_PAGE = layout(
  'Unsubscribe link of a test copy',
  '<h1>This is a test copy</h1><p>In the broadcast itself, this link lets each recipient unsubscribe with one click. In a test copy or a preview it names no one, so nothing changes.</p>',
);

export const UNAVAILABLE_PAGE = layout('Try again', '<h1>Something went wrong</h1><p>This page could not be opened just now. Please try again in a moment.</p>');
