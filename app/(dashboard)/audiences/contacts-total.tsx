import { countOf } from '../../lib/format';
import type { Audience } from './types';

/**
 * The contacts stored across all audiences: the number the plan's contact limit counts. (The
 * limit itself is not on the organization the dashboard reads, so it is not shown.)
 */
export function ContactsTotal({ audiences }: { audiences: Audience[] }) {
  const total = audiences.reduce((sum, audience) => sum + audience.contactCount, 0);
  return (
    <span className="whitespace-nowrap" data-testid="contacts-total" data-total={total}>
      {countOf(total, 'contact')} across {countOf(audiences.length, 'audience')}.
    </span>
  );
}
