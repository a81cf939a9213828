import { SkeletonRows } from '../../../components/skeleton-rows';

/** Placeholder rows while a page of deliveries loads. */
export const DeliverySkeletonRows = ({ count = 3 }: { count?: number }) => (
  <SkeletonRows testId="delivery-skeleton" count={count} cells={['h-4 w-36', 'h-5 w-20 rounded-md', 'h-4 w-6', 'h-4 w-10', 'h-4 w-24', 'h-4 w-20']} />
);
