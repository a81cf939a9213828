import { Badge } from '../../../components/badge';
import { cx } from '../../../components/cx';
import { DownloadIcon, PaperclipIcon } from 'lucide-react';
import { formatBytes } from '../../../lib/format';
import type { EmailAttachment } from '../types';

/** The files sent with the email; their content is kept for 30 days, then they show as expired. */
export function AttachmentsList({ emailId, attachments }: { emailId: string; attachments: EmailAttachment[] }) {
  return (
    <section aria-labelledby="attachments-heading" className="space-y-3" data-testid="attachments">
      <h2 id="attachments-heading" className="text-base font-semibold text-slate-900">
        Attachments
      </h2>
      {attachments.length === 0 ? (
        <p className="text-sm text-slate-500">No attachments.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
          {attachments.map((attachment) => (
            <li
              key={attachment.id}
              data-testid="attachment"
              data-expired={attachment.expired || undefined}
              className={cx('flex items-center gap-3 px-5 py-3 text-sm', attachment.expired && 'bg-slate-50 text-slate-400')}
            >
              <PaperclipIcon className={cx('size-4 shrink-0', attachment.expired ? 'text-slate-300' : 'text-slate-400')} />
              <div className="min-w-0 flex-1">
                <p className={cx('font-medium break-all', attachment.expired ? 'text-slate-400' : 'text-slate-900')}>{attachment.filename}</p>
                <p className="text-xs">
                  <span className={attachment.expired ? undefined : 'text-slate-500'}>{formatBytes(attachment.size)}</span>
                  <span aria-hidden="true"> · </span>
                  <span className={cx('font-mono', attachment.expired ? undefined : 'text-slate-500')}>{attachment.contentType}</span>
                </p>
              </div>
              {attachment.expired ? (
                <Badge tone="muted">
                  <span title="Attachments are kept for 30 days">Expired</span>
                </Badge>
              ) : (
                <a
                  href={`/emails/${emailId}/attachments/${attachment.id}`}
                  download={attachment.filename}
                  aria-label={`Download ${attachment.filename}`}
                  className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-200 bg-white px-2.5 py-1.5 text-xs font-medium text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
                >
                  <DownloadIcon className="size-3.5" />
                  Download
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
