import { ArrowDownIcon, ArrowUpIcon } from 'lucide-react';
import { PLANS, type Plan } from '@/server/services/plans/plan-table';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { cx } from '../../components/cx';
import { DataTable } from '../../components/data-table';
import { formatCount, formatDate, formatEur } from '../../lib/format';
import type { Usage } from './types';

/** The volumes, smallest first: the order a person reads "up" and "down" in. */
const VOLUMES: Plan[] = Object.values(PLANS).sort((a, b) => a.monthlyEmails - b.monthlyEmails);

const columns = [
  'Plan',
  ...['Emails / month', 'Price / month', 'Domains', 'Webhooks', 'Contacts', 'Logs kept'].map((numeric) => ({ numeric })),
  { srOnly: 'Change plan' },
];

const limit = (value: number | null) => (value === null ? 'Unlimited' : formatCount(value));

/** The choice a row offers, given the plan in force and a downgrade waiting (if any). */
export type PlanChoice = 'upgrade' | 'downgrade' | 'keep';

function PlanAction({ row, usage, onChoose, disabled }: { row: Plan; usage: Usage; onChoose?: (plan: Plan, choice: PlanChoice) => void; disabled: boolean }) {
  const current = row.id === usage.plan.id;
  const pending = usage.pendingPlanChange?.plan === row.id;
  if (current && !usage.pendingPlanChange) return <span className="text-xs font-medium text-indigo-700">Your plan</span>;
  if (pending) return <span className="text-xs font-medium text-slate-500">Scheduled</span>;
  if (!onChoose) return null;
  if (current) {
    return (
      <Button size="sm" variant="secondary" disabled={disabled} onClick={() => onChoose(row, 'keep')}>
        Keep this plan<span className="sr-only">: {row.label}</span>
      </Button>
    );
  }
  const up = row.monthlyEmails > usage.plan.monthlyEmails;
  return (
    <Button size="sm" variant="secondary" disabled={disabled} onClick={() => onChoose(row, up ? 'upgrade' : 'downgrade')}>
      {up ? <ArrowUpIcon className="size-4 text-indigo-600" /> : <ArrowDownIcon className="size-4 text-slate-500" />}
      {up ? 'Upgrade' : 'Downgrade'}
      <span className="sr-only"> to {row.label}</span>
    </Button>
  );
}

/** Every volume with its price and limits; the plan in force marked, and a way to move to any other. */
export function PlansTable({ usage, onChoose, disabled = false }: { usage: Usage; onChoose?: (plan: Plan, choice: PlanChoice) => void; disabled?: boolean }) {
  return (
    <DataTable label="Plans" columns={columns} dense>
      {VOLUMES.map((row) => {
        const current = row.id === usage.plan.id;
        const pending = usage.pendingPlanChange?.plan === row.id ? usage.pendingPlanChange : null;
        return (
          <tr key={row.id} data-testid="plan-row" data-plan={row.id} data-current={current || undefined} className={cx(current ? 'bg-indigo-50/60' : 'hover:bg-slate-50/60')}>
            <th scope="row" className="py-2.5 pr-3 pl-5 text-left font-medium whitespace-nowrap text-slate-900">
              {row.label}
              {(current || pending) && (
                <span className="mt-1 flex gap-1.5">
                  {current && <Badge tone="accent">Current</Badge>}
                  {pending && <Badge tone="amber">From {formatDate(pending.effectiveAt)}</Badge>}
                </span>
              )}
            </th>
            <td className="px-3 py-2.5 text-right tabular-nums">{formatCount(row.monthlyEmails)}</td>
            <td className="px-3 py-2.5 text-right tabular-nums">
              {row.priceEurCents === 0 ? 'Free' : formatEur(row.priceEurCents)}
              {/* The overage rate belongs with the price: it is what a month past the quota costs. */}
              <span className="block text-xs whitespace-nowrap text-slate-500" data-testid="plan-overage-rate">
                {row.overagePer1000EurCents === null ? 'no overage' : `overage ${formatEur(row.overagePer1000EurCents)} / 1,000`}
              </span>
            </td>
            <td className="px-3 py-2.5 text-right tabular-nums">{limit(row.domains)}</td>
            <td className="px-3 py-2.5 text-right tabular-nums">{formatCount(row.webhookEndpoints)}</td>
            <td className="px-3 py-2.5 text-right tabular-nums">{formatCount(row.contacts)}</td>
            <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">{row.logRetentionDays} days</td>
            <td className="py-2.5 pr-5 pl-3 text-right">
              <PlanAction row={row} usage={usage} onChoose={onChoose} disabled={disabled} />
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
