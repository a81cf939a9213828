import Link from 'next/link';
import { ArrowRightIcon } from 'lucide-react';
import type { PreflightCheck } from './preflight-types';

/** The page that fixes a check: the From domain's page, or the Domains page with the name to add filled in. */
function target(fix: NonNullable<PreflightCheck['fix']>): { href: string; label: string } {
  if (fix.id) return { href: `/domains/${fix.id}`, label: `Open ${fix.name ?? 'the domain'}` };
  if (fix.name) return { href: `/domains?add=${encodeURIComponent(fix.name)}`, label: `Add ${fix.name}` };
  return { href: '/domains?add=', label: 'Add a domain' };
}

export function PreflightFixLink({ fix }: { fix: NonNullable<PreflightCheck['fix']> }) {
  const { href, label } = target(fix);
  return (
    <Link href={href} className="mt-1 inline-flex items-center gap-1 font-medium text-indigo-600 hover:text-indigo-500" data-testid="preflight-fix">
      {label}
      <ArrowRightIcon className="size-3.5" aria-hidden="true" />
    </Link>
  );
}
