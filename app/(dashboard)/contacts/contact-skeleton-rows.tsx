import { SkeletonRows } from '../../components/skeleton-rows';

/** Placeholder rows while a page of contacts loads. */
export const ContactSkeletonRows = ({ count = 5 }: { count?: number }) => <SkeletonRows testId="contact-skeleton" count={count} cells={['h-4 w-56', 'h-4 w-32', 'h-4 w-20', 'ml-auto size-5']} />;
