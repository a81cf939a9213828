import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contactImports } from '@/db/schema';
import type { ImportRowError } from '../../vocabulary/contact-imports';

/** Whether `text` holds the address, in any case: a row not imported keeps its address cell as the file had it. */
export const namesAddress = (text: SQL, address: string): SQL => sql`position(${address} in lower(${text})) > 0`;

/** The organization's imports that list the address among the rows they did not import, oldest first, with those rows alone. */
export async function importErrorsNaming(db: Db, organizationId: string, address: string): Promise<Array<{ id: string; fileName: string | null; createdAt: Date; errors: ImportRowError[] }>> {
  const rows = await db
    .select({ id: contactImports.id, fileName: contactImports.fileName, createdAt: contactImports.createdAt, errors: contactImports.errors })
    .from(contactImports)
    .where(and(eq(contactImports.organizationId, organizationId), namesAddress(sql`${contactImports.errors}::text`, address)))
    .orderBy(asc(contactImports.createdAt), asc(contactImports.id));
  return rows
    .map((row) => ({ ...row, errors: row.errors.filter((error) => error.email.toLowerCase().includes(address)) }))
    .filter((row) => row.errors.length > 0);
}
