import { cx } from './cx';

/** The wordmark: a mail glyph in the accent colour and the product name. */
export function Logo({ className }: { className?: string }) {
  return (
    <span className={cx('inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900', className)}>
      <span className="flex size-7 items-center justify-center rounded-md bg-indigo-600 text-white">
        <svg viewBox="0 0 24 24" width={16} height={16} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <rect x="3" y="5" width="18" height="14" rx="2" />
          <path d="m3.5 6.5 8.5 6 8.5-6" />
        </svg>
      </span>
      EU Mail
    </span>
  );
}
