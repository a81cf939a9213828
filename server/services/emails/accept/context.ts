import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/raw-sql';

export interface SenderDomain {
  id: string;
  name: string;
  status: string;
  openTracking: boolean;
  clickTracking: boolean;
}

/** What the refusals before queueing read from the database, for one email or a whole batch. */
export interface SendContext {
  organization: { status: string; ownerEmail: string } | null;
  /** The organization's domains among the senders', by name. */
  domains: Map<string, SenderDomain>;
  /** The recipients (normalised) that are on the organization's suppression list. */
  suppressed: Set<string>;
}

interface ContextRow {
  status: string;
  owner_email: string;
  domains: SenderDomain[];
  suppressed: string[];
}

// Organization, sender domains and suppressed recipients in one prepared round trip: sending is
// the hottest write path, and three unnamed queries cost more than the insert itself.
const readContext = perDatabase((db) =>
  prepareSql<ContextRow>(
    db,
    'send_context',
    sql`select o.status, o.owner_email,
        coalesce((select jsonb_agg(jsonb_build_object('id', d.id, 'name', d.name, 'status', d.status,
            'openTracking', d.open_tracking, 'clickTracking', d.click_tracking))
          from domains d
          where d.organization_id = o.id and d.name in (select jsonb_array_elements_text(${sql.placeholder('names')}::jsonb))), '[]'::jsonb) as domains,
        coalesce((select jsonb_agg(s.email)
          from suppressions s
          where s.organization_id = o.id and s.email in (select jsonb_array_elements_text(${sql.placeholder('addresses')}::jsonb))), '[]'::jsonb) as suppressed
      from organizations o where o.id = ${sql.placeholder('organizationId')}`,
  ),
);

/** Reads the context; `addresses` must already be normalised (lowercase, ASCII domain). */
export async function loadSendContext(db: Db, organizationId: string, domainNames: string[], addresses: string[]): Promise<SendContext> {
  const [row] = await readContext(db).execute({
    organizationId,
    names: JSON.stringify([...new Set(domainNames)]),
    addresses: JSON.stringify([...new Set(addresses)]),
  });
  if (!row) return { organization: null, domains: new Map(), suppressed: new Set() };
  const parse = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
  return {
    organization: { status: row.status, ownerEmail: row.owner_email },
    domains: new Map(parse(row.domains).map((domain) => [domain.name, domain])),
    suppressed: new Set(parse(row.suppressed)),
  };
}
