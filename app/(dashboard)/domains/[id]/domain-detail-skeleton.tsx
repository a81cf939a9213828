import { Skeleton } from '../../../components/skeleton';

/** The page's outline while the domain loads. */
export function DomainDetailSkeleton() {
  return (
    <div className="space-y-8" data-testid="domain-skeleton" aria-busy="true">
      <div className="space-y-4">
        <Skeleton className="h-4 w-20" />
        <div className="flex items-center gap-3">
          <Skeleton className="h-7 w-64" />
          <Skeleton className="h-5 w-16 rounded-md" />
        </div>
        <Skeleton className="h-4 w-72" />
      </div>
      <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <Skeleton className="h-5 w-32" />
        {Array.from({ length: 4 }, (_, index) => (
          <Skeleton key={index} className="h-9 w-full" />
        ))}
      </div>
    </div>
  );
}
