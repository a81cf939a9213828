import { compile } from 'html-to-text';

/**
 * The text alternative of an HTML body, for a message given only HTML. A link keeps its target
 * as "text (url)" (the URL alone when it is its own text), so a text-only reader can still follow
 * it; images (the open pixel among them) are left out; headings keep their case, so the two
 * parts read the same to a filter comparing them (SpamAssassin's MPART_ALT_DIFF). Compiled once:
 * the selectors are parsed at compile time, not per message.
 */
const convert = compile({
  // Short enough for quoted-printable to need no soft breaks, and for a reply to quote it.
  wordwrap: 72,
  selectors: [
    { selector: 'a', options: { linkBrackets: ['(', ')'], hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
    // Layout tables (most HTML mail) read as their cells in order; data tables keep their columns.
    { selector: 'table', format: 'dataTable', options: { maxColumnWidth: 72, uppercaseHeaderCells: false } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
  ],
});

export function textFromHtml(html: string): string {
  return convert(html).trim();
}
