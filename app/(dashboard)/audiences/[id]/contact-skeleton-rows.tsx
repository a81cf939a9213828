import { SkeletonRows } from '../../../components/skeleton-rows';

const CELLS = ['h-4 w-52', 'h-4 w-28', 'h-5 w-24 rounded-md', 'h-4 w-20', 'ml-auto h-5 w-14'];

/** Placeholder rows while a page of contacts loads, with the checkbox column when the table has one. */
export const ContactSkeletonRows = ({ count = 5, selectable }: { count?: number; selectable: boolean }) => (
  <SkeletonRows testId="contact-skeleton" count={count} cells={selectable ? ['size-4', ...CELLS] : CELLS} />
);
