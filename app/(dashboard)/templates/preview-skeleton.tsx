import { Skeleton } from '../../components/skeleton';

/** The rendered parts' outline while the first preview loads. */
export function PreviewSkeleton() {
  return (
    <div className="space-y-4" aria-busy="true" data-testid="preview-skeleton">
      <Skeleton className="h-9 w-full rounded-lg" />
      <Skeleton className="h-64 w-full rounded-lg" />
      <Skeleton className="h-20 w-full rounded-lg" />
    </div>
  );
}
