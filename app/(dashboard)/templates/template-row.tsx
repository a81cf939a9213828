import Link from 'next/link';
import { ChevronRightIcon } from 'lucide-react';
import { Badge } from '../../components/badge';
import { RelativeTime } from '../../components/relative-time';
import type { TemplateSummary } from './types';
import { VariableBadges } from './variable-badges';

export function TemplateRow({ template }: { template: TemplateSummary }) {
  const href = `/templates/${template.id}`;
  return (
    <tr data-testid="template-row" data-template-id={template.id} className="align-top hover:bg-slate-50/60">
      <td className="max-w-72 min-w-48 py-3 pr-4 pl-5 font-medium text-slate-900">
        <Link href={href} className="line-clamp-2 wrap-anywhere hover:text-indigo-600 hover:underline">
          {template.name}
        </Link>
        {/* Only a template with drafts is ever a draft: sends do not render what it shows (docs/templates.md). */}
        {template.status === 'draft' && (
          <span className="mt-1 block" data-testid="template-draft">
            <Badge tone="amber">{template.publishedAt === null ? 'Draft' : 'Unpublished changes'}</Badge>
          </span>
        )}
      </td>
      <td className="max-w-96 min-w-56 px-4 py-3">
        {/* The Liquid source, as written: the list shows what the template says, not one rendering of it. */}
        <span title={template.subject} className="line-clamp-2 font-mono text-[13px] wrap-anywhere text-slate-600" data-testid="template-subject">
          {template.subject}
        </span>
      </td>
      <td className="max-w-72 px-4 py-3">
        <VariableBadges variables={template.variables} limit={4} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={template.updatedAt} />
      </td>
      <td className="py-3 pr-5 pl-4 text-right">
        <Link href={href} aria-label={`Open ${template.name}`} className="inline-flex rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600">
          <ChevronRightIcon className="size-5" />
        </Link>
      </td>
    </tr>
  );
}
