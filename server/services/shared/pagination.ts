import { desc, lt, type AnyColumn, type SQL } from 'drizzle-orm';

export interface Page<T> {
  data: T[];
  /** The id to pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

interface PageRequest {
  limit: number;
  cursor?: string;
}

/**
 * Cursor pages over a UUIDv7 id, newest first: the cursor is the last id of the previous page,
 * so a page is `id < cursor ORDER BY id DESC LIMIT limit + 1` and the extra row says whether
 * another page follows. Rows inserted meanwhile never shift later pages.
 */
export async function fetchPage<T extends { id: string }>(
  idColumn: AnyColumn,
  request: PageRequest,
  query: (window: { where: SQL | undefined; orderBy: SQL; limit: number }) => Promise<T[]>,
): Promise<Page<T>> {
  const rows = await query({
    where: request.cursor ? lt(idColumn, request.cursor) : undefined,
    orderBy: desc(idColumn),
    limit: request.limit + 1,
  });
  const more = rows.length > request.limit;
  const data = more ? rows.slice(0, request.limit) : rows;
  return { data, nextCursor: more ? data[data.length - 1]!.id : null };
}
