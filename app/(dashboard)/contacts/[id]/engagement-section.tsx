import { useId } from 'react';
import { RelativeTime } from '../../../components/relative-time';
import { formatDateTime } from '../../../lib/format';
import type { ContactProfile } from '../types';

type Engagement = ContactProfile['engagement'];

const MOMENTS: Array<{ key: keyof Engagement; label: string }> = [
  { key: 'lastDeliveredAt', label: 'Last delivered' },
  { key: 'lastOpenedAt', label: 'Last opened' },
  { key: 'lastClickedAt', label: 'Last clicked' },
];

/** When mail last reached the contact, and when they last opened and clicked: kept after the email log is deleted. */
export function EngagementSection({ engagement }: { engagement: Engagement }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="contact-engagement">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        Engagement
      </h2>
      <p className="mt-1 text-sm text-slate-500">Opens and clicks by the person, not by mail scanners or privacy proxies. Kept after the email log is deleted.</p>
      <dl className="mt-4 grid gap-3 sm:grid-cols-3">
        {MOMENTS.map(({ key, label }) => {
          const at = engagement[key];
          return (
            <div key={key} className="rounded-lg border border-slate-200 px-3 py-2.5">
              <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
              <dd className="mt-0.5 text-sm text-slate-900" data-testid="engagement-moment" data-moment={key} data-at={at ?? 'never'}>
                {at ? (
                  <>
                    <RelativeTime iso={at} className="font-semibold" />
                    <span className="block text-xs text-slate-500">{formatDateTime(at)}</span>
                  </>
                ) : (
                  <span className="font-semibold text-slate-400">never</span>
                )}
              </dd>
            </div>
          );
        })}
      </dl>
    </section>
  );
}
