import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { column, perDatabase, prepareSql, tableName } from '@/db/raw-sql';
import { domains, organizations, suppressions } from '@/db/schema';

interface SenderDomain {
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
    sql`select ${column(organizations, 'status', 'o')}, ${column(organizations, 'ownerEmail', 'o')} as owner_email,
        coalesce((select jsonb_agg(jsonb_build_object('id', ${column(domains, 'id', 'd')}, 'name', ${column(domains, 'name', 'd')}, 'status', ${column(domains, 'status', 'd')},
            'openTracking', ${column(domains, 'openTracking', 'd')}, 'clickTracking', ${column(domains, 'clickTracking', 'd')}))
          from ${tableName(domains, 'd')}
          where ${column(domains, 'organizationId', 'd')} = ${column(organizations, 'id', 'o')}
            and ${column(domains, 'name', 'd')} in (select jsonb_array_elements_text(${sql.placeholder('names')}::jsonb))), '[]'::jsonb) as domains,
        coalesce((select jsonb_agg(${column(suppressions, 'email', 's')})
          from ${tableName(suppressions, 's')}
          where ${column(suppressions, 'organizationId', 's')} = ${column(organizations, 'id', 'o')}
            and ${column(suppressions, 'email', 's')} in (select jsonb_array_elements_text(${sql.placeholder('addresses')}::jsonb))), '[]'::jsonb) as suppressed
      from ${tableName(organizations, 'o')} where ${column(organizations, 'id', 'o')} = ${sql.placeholder('organizationId')}`,
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
