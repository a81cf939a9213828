/**
 * Whether the HTML is a whole document: it has an `<html>` tag. Spam filters (SpamAssassin's
 * HTML_MIME_NO_HTML_TAG) and some clients read a body without one as hand-made or broken.
 */
const HAS_HTML_TAG = /<html[\s>]/i;
const LEADING_DOCTYPE = /^\s*<!doctype[^>]*>/i;

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The HTML as a complete document: a fragment is wrapped (doctype, `<html>`, a `<head>` with the
 * charset the message is sent in and the subject as its title, `<body>`); a document that has its
 * `<html>` is left byte for byte as the customer wrote it. A doctype before a fragment is replaced
 * by ours rather than repeated.
 */
export function asHtmlDocument(html: string, subject: string): string {
  if (HAS_HTML_TAG.test(html)) return html;
  const body = html.replace(LEADING_DOCTYPE, '');
  return (
    '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n' +
    `<title>${escapeText(subject)}</title>\n</head>\n<body>\n${body}\n</body>\n</html>\n`
  );
}
