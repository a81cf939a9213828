import { Skeleton } from '../../components/skeleton';

function CardSkeleton({ className = 'h-44' }: { className?: string }) {
  return (
    <div className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      <Skeleton className="h-4 w-28" />
      <Skeleton className="mt-5 h-7 w-36" />
      <Skeleton className="mt-4 h-2.5 w-full" />
      <Skeleton className="mt-4 h-3 w-2/3" />
    </div>
  );
}

/** The page's shape while the usage loads. */
export function BillingSkeleton() {
  return (
    <div className="space-y-6" data-testid="billing-loading" aria-busy="true">
      <div className="grid gap-6 md:grid-cols-3">
        <CardSkeleton />
        <CardSkeleton />
        <CardSkeleton />
      </div>
      <CardSkeleton className="h-96" />
      <div className="grid gap-6 lg:grid-cols-2">
        <CardSkeleton />
        <CardSkeleton />
      </div>
    </div>
  );
}
