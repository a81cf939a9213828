import { escapeHtml } from './public-page';
import { preferencesPage, preferencesSavedPage } from './preference-page';
import { address, layout, settlingLine, stoppedAllLine, type Listed } from './unsubscribe-layout';
import type { UnsubscribeState } from '../services/unsubscribe/vocabulary';

/* The pages of /unsubscribe/{token}: the plain page of an organization without topics, and the preference page (preference-page.ts) of one with them. */

export { PAGE_CSP } from './unsubscribe-layout';

/** What the email was sent under: its topic, else its audience, and the sender. */
const list = (state: Listed) => `<strong>${escapeHtml(state.topic?.name ?? state.audienceName)}</strong> from <strong>${escapeHtml(state.organizationName)}</strong>`;

const stopAllBox = (state: Listed) =>
  `<label><input type="checkbox" name="everything" value="1"><span>Also stop all other email from ${escapeHtml(state.organizationName)}</span></label>`;

const form = (fields: string, button: string) => `<form method="post"><input type="hidden" name="confirm" value="1">${fields}<button type="submit">${button}</button></form>`;

/** GET: asks to confirm (a scanner following the link changes nothing), or says it is done already; the preference page when the organization has topics. */
export function confirmPage(state: UnsubscribeState): string {
  if (state.status === 'contact-deleted') return nothingToDoPage();
  if (state.topics.length > 0) return preferencesPage(state);
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

/** After the plain form: what was done, and the stop-all choice if it was not taken. */
export function donePage(state: UnsubscribeState): string {
  if (state.status === 'contact-deleted') return nothingToDoPage();
  return layout(
    'Unsubscribed',
    `<h1>You are unsubscribed</h1><p>${address(state)} will get no more emails of ${list(state)}.</p>` +
      (state.stoppedAll
        ? stoppedAllLine(state)
        : form('<input type="hidden" name="everything" value="1">', `Stop all email from ${escapeHtml(state.organizationName)}`)) +
      settlingLine,
  );
}

/** After the preference page's form: what the contact gets now. */
export function savedPage(state: UnsubscribeState, everything: boolean): string {
  if (state.status === 'contact-deleted') return nothingToDoPage();
  return preferencesSavedPage(state, everything);
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
