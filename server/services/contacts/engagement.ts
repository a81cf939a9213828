import { sql, type SQL } from 'drizzle-orm';

/** A person's open or click, not a scanner's (tracking/machine.ts); one recorded before they were told apart counts as a person's. */
const byPerson = sql.raw(`not coalesce((h.data ->> 'machine')::boolean, false)`);

/**
 * A CTE `engaged` (for a `with …`) moving the engagement summary of the contacts the recorded
 * events concern (docs/contacts.md): `events` is a relation with `email_id`, `type`, `data` and
 * `created_at`, `emailsOf` one with `id` and `contact_id`. Only broadcast copies name a contact, so
 * transactional mail joins nothing and writes nothing; a contact's times only move forward. It
 * outlives the log's retention, and rule-based segments and the sunset (services/sunset) read it.
 * A person's open or click moving it lifts the contact's sunset in every audience: a trigger on
 * these columns (migration 0045), so it happens in this statement, whoever runs it.
 */
export function engagementCte(events: string, emailsOf: string): SQL {
  return sql`engaged as (
    update contacts c set
      last_delivered_at = greatest(c.last_delivered_at, t.delivered),
      last_opened_at = greatest(c.last_opened_at, t.opened),
      last_clicked_at = greatest(c.last_clicked_at, t.clicked)
    from (
      select u.contact_id,
        max(h.created_at) filter (where h.type = 'email.delivered') as delivered,
        max(h.created_at) filter (where h.type = 'email.opened' and ${byPerson}) as opened,
        max(h.created_at) filter (where h.type = 'email.clicked' and ${byPerson}) as clicked
      from ${sql.identifier(events)} h join ${sql.identifier(emailsOf)} u on u.id = h.email_id
      where u.contact_id is not null and h.type in ('email.delivered', 'email.opened', 'email.clicked')
      group by u.contact_id
    ) t
    where c.id = t.contact_id and coalesce(t.delivered, t.opened, t.clicked) is not null
  )`;
}
