import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import type { ContactProfile } from './types';
import { PendingBadge } from './pending-badge';
import { UnsubscribedBadge } from './unsubscribed-badge';

/** One contact of the list: its address (the link to its page), name, whether it left everything, and when it was added. */
export function ContactRow({ contact }: { contact: ContactProfile }) {
  const href = `/contacts/${contact.id}`;
  return (
    <tr data-testid="contact-row" data-email={contact.email} data-contact-id={contact.id} className="hover:bg-slate-50/60">
      <td className="max-w-96 min-w-56 py-3 pr-4 pl-5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <Link href={href} className="font-medium break-all text-slate-900 hover:text-indigo-600 hover:underline" data-testid="contact-email">
            {contact.email}
          </Link>
          {contact.pending ? <PendingBadge /> : contact.unsubscribed && <UnsubscribedBadge />}
        </div>
      </td>
      <td className="max-w-64 min-w-32 px-4 py-3 break-words text-slate-700" data-testid="contact-name">
        {contact.name ?? <span className="text-slate-400">—</span>}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={contact.createdAt} />
      </td>
      <td className="py-3 pr-5 pl-4">
        <div className="flex justify-end">
          <Link href={href} aria-label={`Open ${contact.email}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
            <ChevronRightIcon className="size-5" />
          </Link>
        </div>
      </td>
    </tr>
  );
}
