import Link from 'next/link';
import type { ReactNode } from 'react';
import { Button, buttonClasses } from './button';

/**
 * A link that looks like a button (a page that creates something), or, while it cannot be
 * followed, a disabled button: a link has no disabled state a person or a screen reader sees.
 */
export function LinkButton({ href, disabled = false, describedBy, children }: { href: string; disabled?: boolean; describedBy?: string; children: ReactNode }) {
  if (disabled) {
    return (
      <Button disabled aria-describedby={describedBy}>
        {children}
      </Button>
    );
  }
  return (
    <Link href={href} className={buttonClasses()} aria-describedby={describedBy}>
      {children}
    </Link>
  );
}
