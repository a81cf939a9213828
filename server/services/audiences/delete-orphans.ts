import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { perDatabase, prepareSql } from '@/db/raw-sql';

// One statement: the contacts only this audience holds, the organization's count, then the audience
// (its memberships go with it). The orphans are read in the statement's snapshot, where the
// audience's own memberships still stand, hence "no membership of another audience".
const deleteOn = perDatabase((db: Db) =>
  prepareSql<{ contacts: number }>(
    db,
    null,
    sql`with orphans as (
        delete from contacts c
        using audience_memberships m
        where m.audience_id = ${sql.placeholder('audience')}::uuid and c.id = m.contact_id
          and not exists (select 1 from audience_memberships o where o.contact_id = c.id and o.audience_id <> ${sql.placeholder('audience')}::uuid)
        returning c.id
      ), counted as (
        update organizations set contact_count = contact_count - (select count(*) from orphans)
        where id = ${sql.placeholder('organization')}::uuid and exists (select 1 from orphans)
      ), gone as (
        delete from audiences where id = ${sql.placeholder('audience')}::uuid
      )
      select count(*)::int as contacts from orphans`,
  ),
);

/** Deletes the audience, its memberships and every contact left in no audience; answers how many contacts were deleted. */
export async function deleteAudienceAndOrphans(tx: Db, organizationId: string, audienceId: string): Promise<number> {
  const [row] = await deleteOn(tx).execute({ organization: organizationId, audience: audienceId });
  return row?.contacts ?? 0;
}
