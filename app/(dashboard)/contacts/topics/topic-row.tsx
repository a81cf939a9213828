import { RowAction, RowActions } from '../../../components/row-actions';
import { formatDate, formatDateTime } from '../../../lib/format';
import type { Topic } from '../types';
import { DefaultSubscriptionBadge } from './default-subscription-badge';

export function TopicRow({ topic, onEdit, onDelete }: { topic: Topic; onEdit: () => void; onDelete: () => void }) {
  return (
    <tr data-testid="topic-row" data-topic-id={topic.id} data-name={topic.name} className="hover:bg-slate-50/60">
      <td className="max-w-64 py-3 pr-4 pl-5 font-medium break-words text-slate-900" data-testid="topic-name">
        {topic.name}
      </td>
      <td className="max-w-md px-4 py-3 break-words text-slate-600" data-testid="topic-description">
        {topic.description ?? <span className="text-slate-400">—</span>}
      </td>
      <td className="px-4 py-3">
        <DefaultSubscriptionBadge value={topic.defaultSubscription} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={topic.createdAt} title={formatDateTime(topic.createdAt)}>
          {formatDate(topic.createdAt)}
        </time>
      </td>
      <RowActions>
        <RowAction procedure="topics.update" kind="edit" label={`Edit ${topic.name}`} title="Edit topic" onClick={onEdit} />
        <RowAction procedure="topics.delete" kind="delete" label={`Delete ${topic.name}`} title="Delete topic" onClick={onDelete} />
      </RowActions>
    </tr>
  );
}
