import { Badge } from '../../components/badge';
import { PrivacySection } from './privacy-section';
import type { ProcessingActivities } from './types';

/** Who else processes the data: none beyond the operator unless configured (docs/privacy.md). */
export function SubProcessorsSection({ subProcessors }: { subProcessors: ProcessingActivities['subProcessors'] }) {
  return (
    <PrivacySection id="sub-processors" title="Sub-processors">
      {subProcessors.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="sub-processors-empty">
          None: the operator of this service runs every part of it (database, workers, mail delivery) itself.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {subProcessors.map((entry) => (
            <li key={`${entry.source}-${entry.name}`} className="py-2 text-sm" data-testid="sub-processor">
              <span className="font-medium text-slate-900">{entry.name}</span>
              {entry.source === 'relay' && (
                <Badge tone="muted" className="ml-2">
                  SMTP relay
                </Badge>
              )}
              <span className="block text-slate-500">
                {entry.purpose} · {entry.location}
              </span>
            </li>
          ))}
        </ul>
      )}
    </PrivacySection>
  );
}
