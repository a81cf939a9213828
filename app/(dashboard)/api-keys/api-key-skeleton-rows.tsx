import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const ApiKeySkeletonRows = () => (
  <SkeletonRows testId="api-key-skeleton" cells={['h-4 w-32', 'h-4 w-28', 'h-5 w-24 rounded-md', 'h-5 w-12 rounded-md', 'h-4 w-20', 'h-4 w-20', 'ml-auto h-8 w-36 rounded-md']} />
);
