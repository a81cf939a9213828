import { HtmlPreview } from '../../../components/html-preview';
import { cx } from '../../../components/cx';
import type { BroadcastPreview } from '../types';

/** The copy a contact gets, as a mail client shows it: who from, the subject, the HTML in a sandboxed frame, the text under a disclosure. */
export function RenderedMessage({ preview, from, stale }: { preview: BroadcastPreview; from: string; stale: boolean }) {
  const to = preview.contact ? preview.contact.email : 'contact@example.com';
  return (
    <div className={cx('overflow-hidden rounded-lg border border-slate-200 transition-opacity', stale && 'opacity-60')} data-testid="rendered-message" data-stale={stale || undefined}>
      <dl className="space-y-1 border-b border-slate-200 bg-slate-50 px-4 py-3 text-sm">
        <div className="flex gap-2">
          <dt className="w-16 shrink-0 text-slate-500">From</dt>
          <dd className="min-w-0 break-all text-slate-700">{from || <span className="text-slate-400 italic">No sender yet</span>}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="w-16 shrink-0 text-slate-500">To</dt>
          <dd className="min-w-0 break-all text-slate-700" data-testid="preview-to">
            {to}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="w-16 shrink-0 text-slate-500">Subject</dt>
          <dd className="min-w-0 font-semibold wrap-anywhere text-slate-900" data-testid="preview-subject">
            {preview.subject}
          </dd>
        </div>
      </dl>
      {preview.html !== null ? (
        <HtmlPreview html={preview.html} title="HTML preview of the broadcast" className="h-[28rem]" />
      ) : (
        <p className="px-4 py-6 text-center text-sm text-slate-500" data-testid="preview-no-html">
          No HTML part: mail clients show the text below.
        </p>
      )}
      {preview.text !== null && (
        <details className="border-t border-slate-200" open={preview.html === null}>
          <summary className="cursor-pointer px-4 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase hover:text-slate-700">Text version</summary>
          <pre className="max-h-72 overflow-auto px-4 pb-3 font-mono text-[13px] leading-5 whitespace-pre-wrap text-slate-800" data-testid="preview-text">
            {preview.text}
          </pre>
        </details>
      )}
    </div>
  );
}
