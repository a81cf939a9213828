/** A filename a quoted header parameter can carry: printable ASCII, no quote or backslash. */
const asciiFilename = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_');

/**
 * The headers of an attachment download, for the API route and the dashboard's alike: always a
 * download (never rendered in our origin), the real name in `filename*`, and no sniffing.
 */
export function attachmentHeaders(file: { filename: string; contentType: string; content: Buffer }): Record<string, string> {
  return {
    'Content-Type': file.contentType,
    'Content-Length': String(file.content.length),
    'Content-Disposition': `attachment; filename="${asciiFilename(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    'X-Content-Type-Options': 'nosniff',
  };
}
