import { compile } from 'html-to-text';

/**
 * At most this much HTML is read for the text: the conversion holds the delivery worker's event
 * loop (about 0.5 ms per KB), and a body may be 5 MB. 256 KB is well past what Gmail shows before
 * clipping (102 KB); past it the text ends with an ellipsis.
 */
export const TEXT_SOURCE_MAX_CHARS = 256 * 1024;

// Compiled once: the selectors are parsed here, not per message.
const convert = compile({
  // Short enough for quoted-printable to need no soft breaks, and for a reply to quote it.
  wordwrap: 72,
  selectors: [
    { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    // A receipt's lines stay lines (cells side by side); a one-column layout table reads as its content.
    { selector: 'table', format: 'dataTable', options: { maxColumnWidth: 72, uppercaseHeaderCells: false } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

/**
 * The text alternative of an HTML body, for a message given only HTML. A link keeps its target
 * as "text (url)" (the URL alone when it is its own text), so a text-only reader can still follow
 * it; images (the open pixel among them) are left out; headings keep their case, so the two
 * parts read the same to a filter comparing them (SpamAssassin's MPART_ALT_DIFF).
 */
export function textFromHtml(html: string): string {
  if (html.length <= TEXT_SOURCE_MAX_CHARS) return convert(html).trim();
  // Cut at a tag's start, so no half tag or attribute is read as text.
  const cut = html.lastIndexOf('<', TEXT_SOURCE_MAX_CHARS);
  return `${convert(html.slice(0, cut > 0 ? cut : TEXT_SOURCE_MAX_CHARS)).trim()}\n…`;
}
