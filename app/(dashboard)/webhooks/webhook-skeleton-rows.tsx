import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const WebhookSkeletonRows = () => (
  <SkeletonRows testId="webhook-skeleton" count={2} cells={['h-4 w-56', 'h-5 w-20 rounded-md', 'h-5 w-28 rounded-md', 'h-4 w-24', 'h-4 w-20', 'ml-auto size-5']} />
);
