export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The frame every message of ours shares: a heading, paragraphs, a footer saying why it was sent. */
export function renderLayout(input: { subject: string; heading: string; paragraphs: string[]; footer: string }): RenderedEmail {
  const body = input.paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(p)}</p>`).join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;background:#f6f7f9;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(input.heading)}</h1>${body}
<p style="margin:24px 0 0;font-size:12px;color:#666">${escapeHtml(input.footer)}</p></div></body></html>`;
  const text = [input.heading, '', ...input.paragraphs.flatMap((p) => [p, '']), '--', input.footer].join('\n');
  return { subject: input.subject, html, text };
}
