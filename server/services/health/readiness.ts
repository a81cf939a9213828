import { sql } from 'drizzle-orm';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';

export async function checkReadiness(deps: Pick<Deps, 'db'>, timeoutMs = 2_000): Promise<{ status: 'ready'; database: 'ok' }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      deps.db.execute(sql`select 1`),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('database check timed out')), timeoutMs);
      }),
    ]);
  } catch {
    throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable', { 'Retry-After': '5' });
  } finally {
    clearTimeout(timer);
  }
  return { status: 'ready', database: 'ok' };
}
