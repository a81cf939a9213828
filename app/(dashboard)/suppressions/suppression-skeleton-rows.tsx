import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while a page of entries loads. */
export const SuppressionSkeletonRows = ({ count = 5 }: { count?: number }) => (
  <SkeletonRows testId="suppression-skeleton" count={count} cells={['h-4 w-56', 'h-5 w-20 rounded-md', 'h-4 w-24', 'h-4 w-20', 'ml-auto size-5']} />
);
