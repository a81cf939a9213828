import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const DomainSkeletonRows = () => (
  <SkeletonRows testId="domain-skeleton" count={2} cells={['h-4 w-44', 'h-5 w-20 rounded-md', 'h-4 w-20', 'ml-auto size-5']} />
);
