import Link from 'next/link';
import type { ReactNode } from 'react';
import { buttonClasses } from './button';
import { EmptyState } from './empty-state';

/** A detail page whose record is not there (unknown id, another organization's, deleted meanwhile), with the way back to its list. */
export function NotFoundState({ testId, icon, title, backHref, backLabel, children }: {
  testId: string;
  icon: ReactNode;
  title: string;
  backHref: string;
  backLabel: string;
  children: ReactNode;
}) {
  return (
    <EmptyState
      testId={testId}
      icon={icon}
      title={title}
      action={
        <Link href={backHref} className={buttonClasses('secondary')}>
          {backLabel}
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}
