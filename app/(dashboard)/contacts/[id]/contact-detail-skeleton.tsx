import { Skeleton } from '../../../components/skeleton';

/** The page's outline while the contact loads. */
export function ContactDetailSkeleton() {
  return (
    <div className="space-y-6" data-testid="contact-skeleton" aria-busy="true">
      <Skeleton className="h-4 w-20" />
      <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <Skeleton className="h-7 w-80 max-w-full" />
        <div className="grid gap-4 sm:grid-cols-4">
          {Array.from({ length: 4 }, (_, index) => (
            <Skeleton key={index} className="h-9 w-full" />
          ))}
        </div>
      </div>
      {Array.from({ length: 3 }, (_, section) => (
        <div key={section} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <Skeleton className="h-5 w-32" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </div>
      ))}
    </div>
  );
}
