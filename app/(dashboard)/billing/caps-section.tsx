import Link from 'next/link';
import { formatCount } from '../../lib/format';
import { SectionCard } from './section-card';
import type { Cap, Usage } from './types';
import { UsageMeter } from './usage-meter';

const CAPS: Array<{ key: keyof Usage['caps']; label: string; href: string; testId: string }> = [
  { key: 'domains', label: 'Domains', href: '/domains', testId: 'cap-domains' },
  { key: 'webhookEndpoints', label: 'Webhook endpoints', href: '/webhooks', testId: 'cap-webhooks' },
  { key: 'contacts', label: 'Contacts', href: '/audiences', testId: 'cap-contacts' },
  { key: 'apiKeys', label: 'Live API keys', href: '/api-keys', testId: 'cap-api-keys' },
  { key: 'enabledAutomations', label: 'Enabled automations', href: '/automations', testId: 'cap-automations' },
  // A month's allowance rather than a count at one time: it starts again on the 1st (UTC).
  { key: 'automationRunsThisMonth', label: 'Automation runs this month', href: '/automations', testId: 'cap-automation-runs' },
];

function CapRow({ label, href, cap, testId }: { label: string; href: string; cap: Cap; testId: string }) {
  return (
    <li data-testid={testId}>
      <div className="mb-1.5 flex items-baseline justify-between gap-3 text-sm">
        <Link href={href} className="font-medium text-slate-900 hover:text-indigo-600 hover:underline">
          {label}
        </Link>
        <span className="text-slate-600 tabular-nums" data-testid={`${testId}-value`}>
          {cap.limit === null ? (
            <>
              {formatCount(cap.used)} · <span className="text-slate-500">unlimited</span>
            </>
          ) : (
            <>
              {formatCount(cap.used)} of {formatCount(cap.limit)}
            </>
          )}
        </span>
      </div>
      {cap.limit === null ? (
        // No limit, no bar to fill: a plain rule keeps the rows aligned.
        <div className="h-1.5 rounded-full bg-slate-100" aria-hidden="true" />
      ) : (
        <UsageMeter label={label} used={cap.used} limit={cap.limit} size="sm" cap testId={`${testId}-meter`} />
      )}
    </li>
  );
}

/** What the plan allows (domains, endpoints, contacts, keys, enabled automations at once; automation runs a month) and how much of it is in use. */
export function CapsSection({ usage }: { usage: Usage }) {
  return (
    <SectionCard id="caps" title="Plan caps" description={`What the ${usage.plan.label} plan allows at any one time, and automation runs in a calendar month.`} testId="caps">
      <ul className="space-y-4">
        {CAPS.map(({ key, label, href, testId }) => (
          <CapRow key={key} label={label} href={href} cap={usage.caps[key]} testId={testId} />
        ))}
      </ul>
    </SectionCard>
  );
}
