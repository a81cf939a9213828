import { Skeleton } from '../../components/skeleton';

/** The page's shape while the record loads. */
export function PrivacySkeleton() {
  return (
    <div className="space-y-6" data-testid="privacy-loading" aria-busy="true">
      {[0, 1, 2].map((index) => (
        <div key={index} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <Skeleton className="h-4 w-40" />
          <Skeleton className="mt-5 h-3 w-full" />
          <Skeleton className="mt-3 h-3 w-5/6" />
          <Skeleton className="mt-3 h-3 w-2/3" />
        </div>
      ))}
    </div>
  );
}
