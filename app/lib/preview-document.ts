/**
 * The iframe's document: the email's HTML behind a Content-Security-Policy of its own. The
 * sandbox (no scripts, no same-origin) keeps the HTML away from the dashboard; the policy keeps
 * the preview from reaching the network, so opening an email here neither fires its tracking
 * pixels nor tells third parties who looked, until remote images are asked for.
 */
const POLICIES = {
  blocked: "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:; form-action 'none'",
  remote: "default-src 'none'; img-src data: cid: https: http:; style-src 'unsafe-inline' https:; font-src data: https:; media-src https:; form-action 'none'",
} as const;

const DOCTYPE = /^\s*<!doctype[^>]*>/i;

export function previewDocument(html: string, { remoteImages }: { remoteImages: boolean }): string {
  // First in the document, so the policy applies before anything loads; links cannot open
  // from the sandbox, and `_blank` keeps them from replacing the preview instead.
  const head = `<meta http-equiv="Content-Security-Policy" content="${POLICIES[remoteImages ? 'remote' : 'blocked']}"><base target="_blank">`;
  const doctype = DOCTYPE.exec(html)?.[0];
  return doctype ? `${doctype}${head}${html.slice(doctype.length)}` : `${head}${html}`;
}

const REMOTE = [
  /\b(?:src|srcset|background|poster)\s*=\s*["']?\s*(?:https?:)?\/\//i, // images, media
  /<link\b[^>]*\bhref\s*=\s*["']?\s*(?:https?:)?\/\//i, // stylesheets
  /url\(\s*["']?\s*(?:https?:)?\/\//i, // CSS backgrounds and fonts
  /@import\s+["']?\s*(?:https?:)?\/\//i,
];

/** Whether the HTML asks for anything remote (not a link: an image, a stylesheet, a font), so the toggle is worth showing. */
export const hasRemoteContent = (html: string) => REMOTE.some((pattern) => pattern.test(html));
