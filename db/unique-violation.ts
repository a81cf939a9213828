/**
 * A statement a unique index or constraint refused (SQLSTATE 23505): what a check-then-write
 * meets when another request took the same name between the check and the write, which is a
 * conflict to answer (409), not a fault. postgres-js and PGlite both put the SQLSTATE on their
 * error's `code`; drizzle wraps either in a DrizzleQueryError whose `cause` is that error.
 */
export function isUniqueViolation(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 8) return false;
  if ((error as { code?: unknown }).code === '23505') return true;
  return isUniqueViolation((error as { cause?: unknown }).cause, depth + 1);
}
