import { SkeletonRows } from '../../../components/skeleton-rows';

/** Placeholder rows while a page of contacts loads. */
export const ContactSkeletonRows = ({ count = 5 }: { count?: number }) => (
  <SkeletonRows testId="contact-skeleton" count={count} cells={['size-4', 'h-4 w-52', 'h-4 w-28', 'h-5 w-24 rounded-md', 'h-4 w-20', 'ml-auto h-5 w-14']} />
);
