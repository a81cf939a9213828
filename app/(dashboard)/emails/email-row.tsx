import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { RelativeTime } from '../../components/relative-time';
import { RecipientSummary } from './recipient-summary';
import { EmailSourceBadge } from './source-badge';
import { EmailStatusBadge } from './status-badge';
import { TagChips } from './tag-chips';
import type { EmailSummary } from './types';

export function EmailRow({ email }: { email: EmailSummary }) {
  const href = `/emails/${email.id}`;
  return (
    <tr data-testid="email-row" data-email-id={email.id} className="align-top hover:bg-slate-50/60">
      <td className="max-w-52 py-3 pr-4 pl-5 text-slate-700">
        <span className="block truncate" title={email.from}>
          {email.from}
        </span>
        {email.source !== 'api' && (
          <div className="mt-1">
            <EmailSourceBadge source={email.source} muted />
          </div>
        )}
      </td>
      <td className="max-w-52 px-4 py-3 text-slate-700">
        <RecipientSummary to={email.to} />
      </td>
      <td className="max-w-80 px-4 py-3">
        <Link href={href} className="block truncate font-medium text-slate-900 hover:text-indigo-600 hover:underline" title={email.subject}>
          {email.subject}
        </Link>
        <TagChips tags={email.tags} />
      </td>
      <td className="px-4 py-3">
        <EmailStatusBadge status={email.status} />
        {email.status === 'scheduled' && email.scheduledAt && (
          <div className="mt-1 text-xs whitespace-nowrap text-slate-500">
            <RelativeTime iso={email.scheduledAt} future />
          </div>
        )}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={email.createdAt} />
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${email.subject}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
