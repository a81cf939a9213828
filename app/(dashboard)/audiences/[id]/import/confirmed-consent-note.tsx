import { CircleCheckIcon } from 'lucide-react';
import type { ContactImport } from './import-job';

/** Says that the import declared every row's person confirmed (`confirmed_consent`), as the import's read tells it; nothing otherwise. */
export function ConfirmedConsentNote({ job }: { job: Pick<ContactImport, 'confirmedConsent'> }) {
  if (!job.confirmedConsent) return null;
  return (
    <p className="flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900" data-testid="import-confirmed-consent">
      <CircleCheckIcon className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
      <span>Declared as confirmed consent: every person in the file confirmed their subscription. Each imported contact&apos;s consent history names this import.</span>
    </p>
  );
}
