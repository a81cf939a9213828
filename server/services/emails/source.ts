// How an email came in, declared once: the API and the dashboard show it (imports nothing).

/** `api` (POST /emails and the batch), `smtp` (the relay gateway), `broadcast` (a broadcast's fan-out). */
export const EMAIL_SOURCES = ['api', 'smtp', 'broadcast'] as const;
export type EmailSource = (typeof EMAIL_SOURCES)[number];

/**
 * `submitted_via` names a channel other than the API when one was used; a broadcast's messages
 * carry their broadcast. Anything else came through the API.
 */
export function emailSource(row: { submittedVia: string | null; broadcastId: string | null }): EmailSource {
  if (row.submittedVia === 'smtp') return 'smtp';
  return row.broadcastId ? 'broadcast' : 'api';
}
