import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const FormSkeletonRows = ({ count = 2 }: { count?: number }) => (
  <SkeletonRows testId="form-skeleton" count={count} cells={['h-4 w-48', 'h-5 w-24 rounded-md', 'h-4 w-56', 'h-4 w-20', 'ml-auto size-5']} />
);
