import { SkeletonRows } from '../../../components/skeleton-rows';

/** Placeholder rows while the properties load. */
export const PropertySkeletonRows = () => <SkeletonRows testId="property-skeleton" count={3} cells={['h-4 w-32', 'h-5 w-20 rounded-md', 'h-4 w-24', 'h-4 w-24', 'ml-auto h-5 w-14']} />;
