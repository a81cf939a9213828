'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ErrorAlert } from '../../../components/error-alert';
import { ToggleSwitch } from '../../../components/toggle-switch';
import { useDashboardMode } from '../../../lib/dashboard-mode';
import { useMay } from '../../../lib/use-role';
import { useRoleRefusal } from '../../create-gate/role-refusal';
import { useTRPC } from '../../../lib/trpc';
import type { Domain } from '../types';

type Setting = 'openTracking' | 'clickTracking';

const SETTINGS: Array<{ setting: Setting; label: string; explanation: string }> = [
  {
    setting: 'openTracking',
    label: 'Open tracking',
    explanation: 'Records opens of HTML emails with an invisible image. Opens by privacy proxies and scanners are told apart from people’s.',
  },
  {
    setting: 'clickTracking',
    label: 'Click tracking',
    explanation: 'Records clicks by sending the links of HTML emails through a redirect on this service.',
  },
];

const WIRE: Record<Setting, 'open_tracking' | 'click_tracking'> = { openTracking: 'open_tracking', clickTracking: 'click_tracking' };

/**
 * The domain's tracking defaults, each switched on its own and saved at once. They apply to mail
 * accepted from now on; a message's own tracking setting overrides them.
 */
export function TrackingSection({ domain }: { domain: Domain }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const headingId = useId();
  const testMode = useDashboardMode() === 'test';
  const roleRefusal = useRoleRefusal('domains.update');
  const readOnly = testMode || !useMay('domains.update');
  const update = useMutation(
    trpc.domains.update.mutationOptions({
      onSuccess: (updated) => {
        queryClient.setQueryData(trpc.domains.get.queryKey({ id: updated.id }), updated);
      },
    }),
  );
  const pendingSetting = update.isPending && update.variables ? (Object.keys(WIRE) as Setting[]).find((setting) => update.variables[WIRE[setting]] !== undefined) : undefined;
  const valueOf = (setting: Setting) => (setting === pendingSetting && update.variables ? Boolean(update.variables[WIRE[setting]]) : domain[setting]);

  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="domain-tracking">
      <h2 id={headingId} className="text-base font-semibold text-slate-900">
        Tracking
      </h2>
      <p className="mt-1 text-sm text-slate-500">The defaults for mail from {domain.name}, from the next email on. An email’s own tracking setting overrides them.</p>
      <ul className="mt-4 divide-y divide-slate-100 border-t border-slate-100">
        {SETTINGS.map(({ setting, label, explanation }) => (
          <li key={setting} className="flex items-start justify-between gap-4 py-3" data-testid="tracking-setting" data-setting={setting}>
            <div className="min-w-0 text-sm">
              <p className="font-medium text-slate-900">{label}</p>
              <p className="mt-0.5 text-slate-500" id={`${headingId}-${setting}`}>
                {explanation}
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-2 pt-0.5 text-sm font-medium text-slate-700">
              <span data-testid="tracking-state">{valueOf(setting) ? 'On' : 'Off'}</span>
              <ToggleSwitch
                label={label}
                checked={valueOf(setting)}
                onChange={(next) => update.mutate({ id: domain.id, [WIRE[setting]]: next })}
                disabled={readOnly || (update.isPending && setting !== pendingSetting)}
                pending={setting === pendingSetting}
                describedBy={`${headingId}-${setting}`}
              />
            </div>
          </li>
        ))}
      </ul>
      {roleRefusal && (
        <p className="mt-2 text-xs text-slate-500" data-testid="role-note">
          {roleRefusal}
        </p>
      )}
      {!roleRefusal && testMode && <p className="mt-2 text-xs text-slate-500">Domains are live state: switch to Live to change tracking.</p>}
      {update.error && (
        <div className="mt-3">
          <ErrorAlert error={update.error} fallbackTitle="Could not change tracking" />
        </div>
      )}
    </section>
  );
}
