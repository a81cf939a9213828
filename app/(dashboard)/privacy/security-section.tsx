import { ShieldCheckIcon, ShieldAlertIcon } from 'lucide-react';
import { PrivacySection } from './privacy-section';
import type { ProcessingActivities } from './types';

/** The technical and organisational measures (Art. 32), as this deployment runs. */
export function SecuritySection({ measures }: { measures: ProcessingActivities['securityMeasures'] }) {
  return (
    <PrivacySection id="security" title="Security measures">
      <ul className="grid gap-4 md:grid-cols-2">
        {measures.map((measure) => {
          // The one measure that can be missing: TLS in front of the service is the operator's to set up.
          const missing = measure.id === 'https' && measure.title.startsWith('HTTPS not');
          const Icon = missing ? ShieldAlertIcon : ShieldCheckIcon;
          return (
            <li key={measure.id} className="flex gap-3" data-testid="security-measure">
              <Icon className={`mt-0.5 size-5 shrink-0 ${missing ? 'text-amber-600' : 'text-emerald-600'}`} aria-hidden="true" />
              <div>
                <p className="text-sm font-medium text-slate-900">{measure.title}</p>
                <p className="text-sm text-slate-500">{measure.detail}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </PrivacySection>
  );
}
