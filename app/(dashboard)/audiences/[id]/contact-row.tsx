import Link from 'next/link';
import { cx } from '../../../components/cx';
import { RelativeTime } from '../../../components/relative-time';
import { RowAction, RowActions } from '../../../components/row-actions';
import type { Contact } from '../types';
import { SubscriptionBadge } from './subscription-badge';

export function ContactRow({
  contact,
  selectable,
  selected,
  onSelect,
  onEdit,
  onDelete,
}: {
  contact: Contact;
  /** The role may delete contacts: the row starts with its checkbox (the table has that column). */
  selectable: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onEdit: () => void;
  /** None for a rule segment's contacts: its rules decide who is in it. */
  onDelete?: () => void;
}) {
  return (
    <tr data-testid="contact-row" data-contact-id={contact.id} data-email={contact.email} className={cx(selected ? 'bg-indigo-50/50' : 'hover:bg-slate-50/60')}>
      {selectable && (
        <td className="w-10 py-3 pr-2 pl-5">
          <input
            type="checkbox"
            aria-label={`Select ${contact.email}`}
            className="size-4 rounded border-slate-300 align-middle accent-indigo-600"
            checked={selected}
            onChange={(event) => onSelect(event.target.checked)}
          />
        </td>
      )}
      <td className={cx('max-w-80 py-3 pr-4 font-medium break-all text-slate-900', selectable ? 'pl-4' : 'pl-5')} data-testid="contact-email">
        {/* The member is the organization's contact: its page has its values, segments and topics. */}
        <Link href={`/contacts/${contact.id}`} className="hover:text-indigo-600 hover:underline">
          {contact.email}
        </Link>
      </td>
      <td className="max-w-64 px-4 py-3 break-words text-slate-700" data-testid="contact-name">
        {contact.name ?? <span className="text-slate-400">—</span>}
      </td>
      <td className="px-4 py-3">
        <SubscriptionBadge subscribed={contact.subscribed} />
      </td>
      <td className="px-4 py-3 whitespace-nowrap text-slate-500">
        <RelativeTime iso={contact.createdAt} />
      </td>
      <RowActions>
        <RowAction procedure="audiences.updateContact" kind="edit" label={`Edit ${contact.email}`} title="Edit contact" onClick={onEdit} />
        {onDelete && <RowAction procedure="audiences.deleteContact" kind="delete" label={`Delete ${contact.email}`} title="Delete contact" onClick={onDelete} />}
      </RowActions>
    </tr>
  );
}
