/** Every http(s) URL in the HTML's href attributes and in the text, as written. */
export function linksOf(email: { html?: string; text?: string }): string[] {
  const links: string[] = [];
  for (const match of (email.html ?? '').matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) links.push((match[1] ?? match[2] ?? match[3] ?? '').trim());
  for (const match of (email.text ?? '').matchAll(/\bhttps?:\/\/[^\s<>"')\]]+/gi)) links.push(match[0]);
  return links.filter((link) => /^https?:\/\//i.test(link));
}

/** The host of a URL, lowercase, without a leading www.; null when it does not parse. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url.replace(/&amp;/g, '&')).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}
