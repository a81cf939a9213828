import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { Badge } from '../../components/badge';
import { formatDate, formatDateTime } from '../../lib/format';
import type { SignUpForm } from './types';

export function FormRow({ form }: { form: SignUpForm }) {
  const href = `/forms/${form.id}`;
  return (
    <tr data-testid="form-row" className="align-top hover:bg-slate-50/60">
      <td className="py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="hover:text-indigo-600 hover:underline">
          {form.name}
        </Link>
      </td>
      <td className="px-4 py-3">{form.doubleOptIn ? <Badge tone="green">Double opt-in</Badge> : <Badge tone="muted">Single opt-in</Badge>}</td>
      <td className="px-4 py-3 font-mono text-[13px] text-slate-600">{form.allowedOrigins.join(', ')}</td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={form.createdAt} title={formatDateTime(form.createdAt)}>
          {formatDate(form.createdAt)}
        </time>
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${form.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
