import { ExternalLinkIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from './cx';

/**
 * A link to the API reference (/docs). It opens in a new tab: the reference is read beside the
 * dashboard, not instead of it, so the page and whatever is typed in it stay where they were.
 * `section` is Scalar's anchor (`tag/emails`).
 */
export function DocsLink({ section, className, children }: { section?: string; className?: string; children: ReactNode }) {
  return (
    <a href={section ? `/docs#${section}` : '/docs'} target="_blank" rel="noopener" className={cx('group', className)}>
      {children}
      <ExternalLinkIcon className="size-3.5 shrink-0 opacity-60 group-hover:opacity-100" aria-hidden="true" />
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
