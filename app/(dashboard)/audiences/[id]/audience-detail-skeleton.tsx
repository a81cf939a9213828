import { Skeleton } from '../../../components/skeleton';

/** The page's outline while the audience loads. */
export function AudienceDetailSkeleton() {
  return (
    <div className="space-y-6" data-testid="audience-skeleton" aria-busy="true">
      <Skeleton className="h-4 w-20" />
      <div className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <Skeleton className="h-7 w-72 max-w-full" />
        <div className="grid gap-4 sm:grid-cols-3">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-9 w-full" />
          ))}
        </div>
      </div>
      <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <Skeleton className="h-5 w-32" />
        {Array.from({ length: 5 }, (_, index) => (
          <Skeleton key={index} className="h-9 w-full" />
        ))}
      </div>
    </div>
  );
}
