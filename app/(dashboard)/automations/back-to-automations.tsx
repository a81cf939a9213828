import Link from 'next/link';
import { ArrowLeftIcon } from 'lucide-react';

export function BackToAutomations({ href = '/automations', label = 'Automations' }: { href?: string; label?: string }) {
  return (
    <Link href={href} className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800">
      <ArrowLeftIcon className="size-4" />
      {label}
    </Link>
  );
}
