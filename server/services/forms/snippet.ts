// The snippet is pasted into the customer's own page: every value in it is escaped.
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** The hidden fields the endpoint reads besides the person's own (docs/consent.md, "Forms"). */
export const HONEYPOT_FIELD = 'website';
export const FILL_TIME_FIELD = '_fill_ms';

/** What the snippet needs of a form. */
export interface SnippetForm {
  publicKey: string;
  askFirstName: boolean;
  askLastName: boolean;
  propertyKeys: string[];
  consentText: string;
}

/** Where a form posts: `POST {APP_URL}/f/{formKey}`. */
export const formEndpoint = (appUrl: string, publicKey: string) => `${appUrl.replace(/\/$/, '')}/f/${publicKey}`;

const field = (name: string, label: string, type = 'text', required = false) =>
  `  <label>${escapeHtml(label)}<br><input type="${type}" name="${escapeHtml(name)}"${type === 'email' ? ' autocomplete="email"' : ''}${required ? ' required' : ''}></label><br>\n`;

/**
 * The HTML a customer pastes into a page: a plain form posting to the endpoint (form-encoded, so it
 * works without script), the consent text shown above the button, a honeypot field hidden from
 * people (bots fill it), and a small inline script that writes, when the form is sent, how many
 * milliseconds passed since the page showed it (`_fill_ms`). The time is measured by the browser's
 * own monotonic clock, so a visitor's wrong clock does not matter; the endpoint refuses a
 * submission without it or faster than a person types.
 */
export function formSnippet(appUrl: string, form: SnippetForm): string {
  const fields = [
    field('email', 'Email', 'email', true),
    form.askFirstName ? field('first_name', 'First name') : '',
    form.askLastName ? field('last_name', 'Last name') : '',
    ...form.propertyKeys.map((key) => field(`properties.${key}`, key.replace(/_/g, ' '))),
  ].join('');
  return (
    `<form method="post" action="${escapeHtml(formEndpoint(appUrl, form.publicKey))}" accept-charset="utf-8">\n` +
    fields +
    `  <div style="position:absolute;left:-10000px" aria-hidden="true"><input type="text" name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off"></div>\n` +
    `  <input type="hidden" name="${FILL_TIME_FIELD}" value="">\n` +
    `  <p>${escapeHtml(form.consentText)}</p>\n` +
    '  <button type="submit">Subscribe</button>\n' +
    '</form>\n' +
    '<script>(function(f){var t=performance.now();f.addEventListener("submit",function(){f.elements["' +
    FILL_TIME_FIELD +
    '"].value=Math.round(performance.now()-t)})})(document.currentScript.previousElementSibling)</script>\n'
  );
}
