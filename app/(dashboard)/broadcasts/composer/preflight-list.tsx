'use client';

import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Skeleton } from '../../../components/skeleton';
import { describeError } from '../../../lib/errors';
import { PreflightItem } from './preflight-item';
import type { Preflight } from './preflight-types';
import type { usePreflight } from './use-preflight';

/** The checks that carry the link to their fix: the first of each fix, since several checks are often fixed on one domain's page. */
function firstOfEachFix(preflight: Preflight | undefined): Set<string> {
  if (!preflight) return new Set();
  const seen = new Set<string>();
  const linked = new Set<string>();
  for (const check of preflight.checks) {
    if (!check.fix) continue;
    const key = `${check.fix.id}|${check.fix.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    linked.add(check.id);
  }
  return linked;
}

/** "2 warnings, 1 failed": the verdict in a line above the list. */
function summary(preflight: Preflight): string {
  const fails = preflight.checks.filter((check) => check.status === 'fail').length;
  const warns = preflight.checks.filter((check) => check.status === 'warn').length;
  if (fails === 0 && warns === 0) return 'Every check passes.';
  const parts = [fails > 0 && `${fails} failed`, warns > 0 && `${warns} ${warns === 1 ? 'warning' : 'warnings'}`].filter(Boolean);
  return `${parts.join(', ')}: read ${fails + warns === 1 ? 'it' : 'them'} before you send.`;
}

/**
 * What Gmail's and Yahoo's bulk-sender rules ask of this broadcast, checked on the saved version.
 * The checks advise; they never refuse a send, and when they cannot run the page says so and
 * sending stays possible.
 */
export function PreflightList({ query }: { query: ReturnType<typeof usePreflight> }) {
  const rerun = (
    <Button variant="ghost" size="sm" onClick={() => void query.refetch()} loading={query.isFetching}>
      Check again
    </Button>
  );
  const linked = firstOfEachFix(query.data);
  return (
    <div data-testid="preflight">
      <div className="mb-3 flex items-center justify-between gap-3">
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Pre-flight checks</h3>
          {query.data && (
            <p className="text-xs text-slate-500" data-testid="preflight-summary" data-ready={query.data.ready}>
              {summary(query.data)}
            </p>
          )}
        </div>
        {!query.isPending && rerun}
      </div>
      {query.isPending && (
        <div className="space-y-3" aria-busy="true" data-testid="preflight-loading">
          {[0, 1, 2, 3].map((row) => (
            <div key={row} className="flex gap-3">
              <Skeleton className="size-5 rounded-full" />
              <div className="flex-1 space-y-1.5">
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-3 w-full" />
              </div>
            </div>
          ))}
        </div>
      )}
      {query.isError && (
        <Alert tone="warning" title="The checks could not run">
          <span data-testid="preflight-error">{describeError(query.error).message.replace(/\.?$/, '.')} You can still send; run the checks again later.</span>
        </Alert>
      )}
      {query.data && (
        <ul className="divide-y divide-slate-100" aria-label="Pre-flight checks">
          {query.data.checks.map((check) => (
            <PreflightItem key={check.id} check={check} showFix={linked.has(check.id)} />
          ))}
        </ul>
      )}
    </div>
  );
}
