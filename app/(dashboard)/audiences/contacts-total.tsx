'use client';

import { countOf } from '../../lib/format';
import { useUsage } from '../billing/use-usage';

/**
 * The organization's contacts, each counted once (the number the plan's contact limit counts), from
 * the usage read. Not a sum over the audiences: a contact may be in several, and a rule segment
 * holds contacts that exist without it. Asked afresh when the page opens, since adding and deleting
 * contacts here does not refresh the usage.
 */
export function ContactsTotal() {
  const total = useUsage({ fresh: true }).data?.caps.contacts.used;
  if (total === undefined) return null;
  return (
    <span className="whitespace-nowrap" data-testid="contacts-total" data-total={total}>
      {countOf(total, 'contact')} in all.
    </span>
  );
}
