import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const TemplateSkeletonRows = ({ count = 3 }: { count?: number }) => (
  <SkeletonRows testId="template-skeleton" count={count} cells={['h-4 w-40', 'h-4 w-64', 'h-5 w-32 rounded-md', 'h-4 w-24', 'ml-auto size-5']} />
);
