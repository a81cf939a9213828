/**
 * The addresses typed or pasted into the add dialog: one per line, or separated by commas or
 * semicolons (as mail clients and spreadsheets copy them). Each is trimmed, blanks are dropped,
 * and an exact repeat is sent once. Nothing else is judged here: the server checks every address
 * and says which ones it refused, and why.
 */
export function splitAddresses(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\r\n,;]+/)) {
    const address = part.trim();
    if (address !== '') seen.add(address);
  }
  return [...seen];
}
