import { escapeHtml, publicPages } from './public-page';

/*
 * The pages a form-encoded submission gets when its form names no redirect: a thank-you, or what
 * went wrong with a way back. Self-contained, as the service's other public pages.
 */

const { csp, layout } = publicPages('.back{font-size:.9rem}');

export const FORM_PAGE_CSP = csp;

/** The same page whatever became of the address (new, subscribed already, opted out before). */
export function thanksPage(doubleOptIn: boolean): string {
  const line = doubleOptIn ? 'We have sent you an email: follow its link to confirm your subscription.' : 'Your subscription is recorded.';
  return layout('Thank you', `<h1>Thank you</h1><p>${line}</p><p class="back">You can close this page.</p>`);
}

export function formErrorPage(message: string): string {
  return layout('Not sent', `<h1>The form was not sent</h1><p>${escapeHtml(message)}</p><p class="back">Go back, check what you entered, and try again.</p>`);
}
