import Link from 'next/link';
import { ArrowLeftIcon } from 'lucide-react';

export function BackToBroadcasts() {
  return (
    <Link href="/broadcasts" className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800">
      <ArrowLeftIcon className="size-4" />
      Broadcasts
    </Link>
  );
}
