import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { isUuid } from '../../ids';
import { attachmentContent } from '../../services/emails/attachments';
import type { Principal } from '../../services/shared/principal';

/** A filename a quoted header parameter can carry: printable ASCII, no quote or backslash. */
const asciiFilename = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_');

interface AttachmentDownload {
  headers: Record<string, string>;
  content: Buffer;
}

/**
 * An attachment download, one implementation for `GET /api/emails/{id}/attachments/{attachmentId}`
 * and the dashboard's link: the caller's own email in the caller's mode (404 otherwise), 410 after
 * the 30 days, and always a download: never rendered in our origin, the real name in `filename*`,
 * no sniffing, no caching.
 */
export async function attachmentDownload(deps: Pick<Deps, 'db' | 'clock'>, principal: Principal, emailId: string, attachmentId: string): Promise<AttachmentDownload> {
  if (!isUuid(emailId) || !isUuid(attachmentId)) throw validationError('id and attachmentId must be UUIDs');
  const file = await attachmentContent(deps, principal, emailId, attachmentId);
  return {
    content: file.content,
    headers: {
      'Content-Type': file.contentType,
      'Content-Length': String(file.content.length),
      'Content-Disposition': `attachment; filename="${asciiFilename(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  };
}
