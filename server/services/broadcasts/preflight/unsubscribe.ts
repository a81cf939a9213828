import { check, type PreflightCheck } from './checks';

/**
 * `{{ unsubscribe_url }}` as Liquid outputs it: any whitespace inside the braces, whitespace
 * control (`{{-`, `-}}`) and filters (`| default: …`) allowed; a longer name such as
 * `unsubscribe_urls` is another variable.
 */
const UNSUBSCRIBE_OUTPUT = /\{\{-?\s*unsubscribe_url\s*(?:\|[^}]*)?-?\}\}/;

export const mentionsUnsubscribeUrl = (source: string | null): boolean => source !== null && UNSUBSCRIBE_OUTPUT.test(source);

/** What a broadcast will send: its own bodies, or its template's. Null when it has neither any more. */
export interface BroadcastBodies {
  html: string | null;
  text: string | null;
  /** The template's name when the bodies are the template's. */
  template: string | null;
}

const HOW_TO_LINK =
  'add a link people can see, such as <a href="{{ unsubscribe_url }}">Unsubscribe</a> in the HTML and "Unsubscribe: {{ unsubscribe_url }}" in the text';

export function judgeVisibleUnsubscribe(bodies: BroadcastBodies | null): PreflightCheck {
  if (bodies === null || (bodies.html === null && bodies.text === null)) {
    return check('visible_unsubscribe', 'fail', `The broadcast has no body to check (its template is gone). To fix it, give it html or text, or choose a template, and ${HOW_TO_LINK}.`);
  }
  const whose = bodies.template === null ? 'The broadcast' : `The template "${bodies.template}"`;
  const parts = [mentionsUnsubscribeUrl(bodies.html) && 'HTML', mentionsUnsubscribeUrl(bodies.text) && 'text'].filter(Boolean);
  if (parts.length > 0) return check('visible_unsubscribe', 'pass', `${whose} links to {{ unsubscribe_url }} in its ${parts.join(' and ')} body.`);
  return check(
    'visible_unsubscribe',
    'fail',
    `${whose} has no {{ unsubscribe_url }} in its body; Gmail and Yahoo ask bulk senders for an unsubscribe link in the message itself. To fix it, ${HOW_TO_LINK}.`,
  );
}

/**
 * Every broadcast message carries List-Unsubscribe (our https URL and a mailto) and
 * List-Unsubscribe-Post; RFC 8058 makes one-click valid only for an https URL, so the headers
 * are only as good as APP_URL.
 */
export function judgeOneClickUnsubscribe(appUrl: string): PreflightCheck {
  if (new URL(appUrl).protocol === 'https:') {
    return check(
      'one_click_unsubscribe',
      'pass',
      `Every message of the broadcast carries List-Unsubscribe with an https URL on ${appUrl} and a mailto address, and List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058).`,
    );
  }
  return check(
    'one_click_unsubscribe',
    'fail',
    `APP_URL is ${appUrl}, not https, and RFC 8058 one-click unsubscribe needs an https URL, so messages carry no List-Unsubscribe-Post header and Gmail and Yahoo see no one-click unsubscribe. To fix it, set APP_URL to the https origin the service is reached at and restart it.`,
  );
}
