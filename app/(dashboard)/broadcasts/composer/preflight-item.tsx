import { CircleAlertIcon, CircleCheckIcon, CircleXIcon } from 'lucide-react';
import { PreflightFixLink } from './preflight-fix-link';
import type { CheckStatus, PreflightCheck } from './preflight-types';

const ICONS: Record<CheckStatus, { icon: typeof CircleCheckIcon; className: string; label: string }> = {
  pass: { icon: CircleCheckIcon, className: 'text-emerald-600', label: 'Passed' },
  warn: { icon: CircleAlertIcon, className: 'text-amber-500', label: 'Warning' },
  fail: { icon: CircleXIcon, className: 'text-red-600', label: 'Failed' },
};

/** One check: its verdict as an icon (and in words for screen readers), its title, the sentence that explains it, and the page that fixes it. */
export function PreflightItem({ check, showFix }: { check: PreflightCheck; showFix: boolean }) {
  const { icon: Icon, className, label } = ICONS[check.status];
  return (
    <li className="flex gap-3 py-2.5 first:pt-0 last:pb-0" data-testid="preflight-check" data-check={check.id} data-status={check.status}>
      <Icon className={`mt-0.5 size-5 shrink-0 ${className}`} aria-hidden="true" />
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900">
          <span className="sr-only">{label}: </span>
          {check.title}
        </p>
        <p className="mt-0.5 wrap-anywhere text-slate-600">{check.detail}</p>
        {showFix && check.fix && <PreflightFixLink fix={check.fix} />}
      </div>
    </li>
  );
}
