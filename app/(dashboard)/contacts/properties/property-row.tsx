import { Badge } from '../../../components/badge';
import { RowAction, RowActions } from '../../../components/row-actions';
import { formatDate, formatDateTime } from '../../../lib/format';
import { typeLabel, valueText } from '../property-values';
import type { ContactProperty } from '../types';

export function PropertyRow({ property, onEdit, onDelete }: { property: ContactProperty; onEdit: () => void; onDelete: () => void }) {
  return (
    <tr data-testid="property-row" data-key={property.key} className="hover:bg-slate-50/60">
      <td className="max-w-80 py-3 pr-4 pl-5">
        <code className="font-mono text-sm font-medium break-all text-slate-900">{property.key}</code>
      </td>
      <td className="px-4 py-3" data-testid="property-type" data-type={property.type}>
        <Badge tone="neutral">{typeLabel(property.type)}</Badge>
      </td>
      <td className="max-w-64 px-4 py-3 break-words" data-testid="property-fallback">
        {property.fallbackValue === null ? <span className="text-slate-400">None</span> : <span className="text-slate-700">{valueText(property.fallbackValue)}</span>}
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <time dateTime={property.createdAt} title={formatDateTime(property.createdAt)}>
          {formatDate(property.createdAt)}
        </time>
      </td>
      <RowActions>
        <RowAction procedure="contactProperties.update" kind="edit" label={`Edit the fallback of ${property.key}`} title="Edit fallback" onClick={onEdit} />
        <RowAction procedure="contactProperties.delete" kind="delete" label={`Delete ${property.key}`} title="Delete property" onClick={onDelete} />
      </RowActions>
    </tr>
  );
}
