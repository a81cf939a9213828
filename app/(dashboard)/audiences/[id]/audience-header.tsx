import { Badge } from '../../../components/badge';
import { CopyButton } from '../../../components/copy-button';
import { RelativeTime } from '../../../components/relative-time';
import { countOf, formatPreciseDateTime } from '../../../lib/format';
import type { Segment } from '../types';

/** The audience's name (and whether rules choose its contacts), how many contacts it holds, since when, and its id for the API. */
export function AudienceHeader({ audience }: { audience: Segment }) {
  return (
    <section aria-labelledby="audience-name" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <p className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
        Audience
        {audience.rules && (
          <span data-testid="audience-rule-based">
            <Badge tone="violet">Defined by rules</Badge>
          </span>
        )}
      </p>
      <h1 id="audience-name" className="mt-1 text-2xl font-semibold tracking-tight wrap-anywhere text-slate-900">
        {audience.name}
      </h1>
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-3">
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Contacts</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-testid="audience-contact-count" data-count={audience.contactCount}>
            {countOf(audience.contactCount, 'contact')}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Created</dt>
          <dd className="mt-1 text-sm text-slate-900">
            {formatPreciseDateTime(audience.createdAt)}
            <span className="block text-xs text-slate-500">
              <RelativeTime iso={audience.createdAt} />
            </span>
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Audience ID</dt>
          <dd className="mt-1 flex items-start gap-2">
            <code className="min-w-0 pt-1.5 font-mono text-xs break-all text-slate-700" data-testid="audience-id">
              {audience.id}
            </code>
            <CopyButton text={audience.id} size="sm" iconOnly describe="audience ID" />
          </dd>
        </div>
      </dl>
    </section>
  );
}
