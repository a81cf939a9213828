import { SkeletonRows } from '../../../components/skeleton-rows';

/** Placeholder rows while the topics load. */
export const TopicSkeletonRows = () => <SkeletonRows testId="topic-skeleton" count={3} cells={['h-4 w-36', 'h-4 w-64', 'h-5 w-16 rounded-md', 'h-4 w-24', 'ml-auto h-5 w-14']} />;
