import Link from 'next/link';
import { ArrowLeftIcon } from 'lucide-react';

export function BackToContacts() {
  return (
    <Link href="/contacts" className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800">
      <ArrowLeftIcon className="size-4" />
      Contacts
    </Link>
  );
}
