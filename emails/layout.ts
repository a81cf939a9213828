export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A link the reader is asked to follow: a button in HTML, the bare URL on its own line in text. */
interface Action {
  label: string;
  url: string;
}

const actionHtml = (action: Action) =>
  `<p style="margin:0 0 16px"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0f172a;color:#fff;text-decoration:none;border-radius:6px;padding:10px 18px;font-weight:600">${escapeHtml(action.label)}</a></p>` +
  `<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#444;word-break:break-all">${escapeHtml(action.url)}</p>`;

/** The frame every message of ours shares: a heading, paragraphs (an action after the first), a footer saying why it was sent. */
export function renderLayout(input: { subject: string; heading: string; paragraphs: string[]; footer: string; action?: Action }): RenderedEmail {
  const paragraph = (p: string) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`;
  const [first = '', ...rest] = input.paragraphs;
  const body = input.action ? paragraph(first) + actionHtml(input.action) + rest.map(paragraph).join('') : input.paragraphs.map(paragraph).join('');
  // A whole document, as customers' mail is sent (server/mail/html-document.ts): charset and title in a head.
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(input.subject)}</title></head><body style="font-family:system-ui,sans-serif;color:#111;background:#f6f7f9;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.heading)}</h1>${body}
<p style="margin:24px 0 0;font-size:12px;color:#666">${escapeHtml(input.footer)}</p></div></body></html>`;
  const paragraphs = input.action ? [first, `${input.action.label}: ${input.action.url}`, ...rest] : input.paragraphs;
  const text = [input.heading, '', ...paragraphs.flatMap((p) => [p, '']), '--', input.footer].join('\n');
  return { subject: input.subject, html, text };
}
