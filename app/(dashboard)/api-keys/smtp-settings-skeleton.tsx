import { Skeleton } from '../../components/skeleton';

/** Placeholder rows while the settings load. */
export function SmtpSettingsSkeleton() {
  return (
    <div className="divide-y divide-slate-100" data-testid="smtp-settings-skeleton" aria-busy="true">
      {['w-40', 'w-16', 'w-16', 'w-20', 'w-56'].map((width, index) => (
        <div key={index} className="flex items-center gap-3 py-3">
          <Skeleton className="h-4 w-24" />
          <Skeleton className={`h-4 ${width}`} />
        </div>
      ))}
    </div>
  );
}
