import { PrivacySection } from './privacy-section';
import type { ProcessingActivities } from './types';

/** How long each kind of data is kept under the organization's plan. */
export function RetentionSection({ retention }: { retention: ProcessingActivities['retention'] }) {
  return (
    <PrivacySection id="retention" title="Retention" description={`Under your plan, ${retention.plan.label}. Deleted, not archived, by a sweep that runs every hour.`}>
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead>
            <tr className="text-left text-xs font-medium tracking-wide text-slate-500 uppercase">
              <th scope="col" className="py-2 pr-4">
                Data
              </th>
              <th scope="col" className="px-4 py-2">
                Kept
              </th>
              <th scope="col" className="py-2 pl-4">
                Notes
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {retention.rules.map((rule) => (
              <tr key={rule.data} data-testid="retention-rule">
                <td className="py-2 pr-4 font-medium text-slate-900">{rule.data}</td>
                <td className="px-4 py-2 whitespace-nowrap text-slate-700">{rule.days === null ? 'Until removed' : `${rule.days} days`}</td>
                <td className="py-2 pl-4 text-slate-500">{rule.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </PrivacySection>
  );
}
