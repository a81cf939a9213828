import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while the list loads. */
export const AudienceSkeletonRows = () => <SkeletonRows testId="audience-skeleton" count={3} cells={['h-4 w-48', 'h-4 w-16', 'h-4 w-24', 'ml-auto h-5 w-14']} />;
