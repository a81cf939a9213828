import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const BroadcastSkeletonRows = ({ count = 3 }: { count?: number }) => (
  <SkeletonRows
    testId="broadcast-skeleton"
    count={count}
    cells={['h-4 w-48', 'h-5 w-16 rounded-md', 'h-4 w-24', 'ml-auto h-4 w-10', 'ml-auto h-4 w-10', 'ml-auto h-4 w-10', 'h-4 w-24', 'ml-auto size-5']}
  />
);
