import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while a page of the list loads. */
export const EmailSkeletonRows = ({ count = 4 }: { count?: number }) => (
  <SkeletonRows testId="email-skeleton" count={count} cells={['h-4 w-36', 'h-4 w-40', 'h-4 w-56', 'h-5 w-20 rounded-md', 'h-4 w-24', 'ml-auto size-5']} />
);
