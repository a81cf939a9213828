import { sql, type SQL } from 'drizzle-orm';
import { consentEntries, contacts } from '@/db/schema';
import type { ConsentAction, ConsentVia } from '../../vocabulary/consent';

/** What withdraws a confirmation: an opt-out from everything the organization sends to lists. */
const WITHDRAWN: ConsentAction[] = ['unsubscribed', 'suppressed'];

/**
 * Whether the contact's consent is confirmed (docs/consent.md): its ledger has a confirmation (a
 * double opt-in link clicked, or an import that declared its rows confirmed) with no opt-out from
 * everything after it. For a select that has `contacts`.
 */
export const confirmedConsent: SQL = sql`exists (
  select 1 from ${consentEntries} confirmed
  where confirmed.organization_id = ${contacts.organizationId} and confirmed.contact_id = ${contacts.id} and confirmed.action = 'confirmed'
    and not exists (
      select 1 from ${consentEntries} later
      where later.organization_id = confirmed.organization_id and later.contact_id = confirmed.contact_id and later.id > confirmed.id
        and later.action in (${sql.join(WITHDRAWN.map((action) => sql`${action}`), sql`, `)}) and later.audience_id is null and later.topic_id is null
    )
)`;

/** The vias that say nothing of how a standing came: the ledger's start, and a path that did not say. */
const UNKNOWN: ConsentVia[] = ['before_ledger', 'unrecorded'];
const GIVEN: ConsentAction[] = ['subscribed', 'confirmed', 'topic_in'];

/** Whether the ledger records how the contact came to be subscribed: a subscription, confirmation or topic joined through a known path. */
export const recordedConsent: SQL = sql`exists (
  select 1 from ${consentEntries} given
  where given.organization_id = ${contacts.organizationId} and given.contact_id = ${contacts.id}
    and given.action in (${sql.join(GIVEN.map((action) => sql`${action}`), sql`, `)})
    and given.via not in (${sql.join(UNKNOWN.map((via) => sql`${via}`), sql`, `)})
)`;

/** The members a broadcast may reach, as its consent requirement says: a condition, or none. */
export const consentRequirement = (requireConfirmedConsent: boolean): SQL | undefined => (requireConfirmedConsent ? confirmedConsent : undefined);
