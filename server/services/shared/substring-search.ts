import { like, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * `%`, `_` and `\` of a search term taken literally in a LIKE pattern (backslash is Postgres's
 * default LIKE escape).
 */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * A case-insensitive substring search of a column stored lowercase (addresses): a LIKE on the
 * lowercased term, which a trigram index on the column can serve.
 */
export const containsLowercase = (column: AnyColumn, search: string): SQL => like(column, `%${escapeLike(search.toLowerCase())}%`);
