import { Skeleton } from '../../components/skeleton';

/** Placeholder rows while the list loads. */
export function DomainSkeletonRows({ count = 2 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <tr key={index} data-testid="domain-skeleton">
          <td className="py-4 pr-4 pl-5">
            <Skeleton className="h-4 w-44" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-5 w-20 rounded-md" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-4 w-20" />
          </td>
          <td className="py-4 pr-5 pl-4">
            <Skeleton className="ml-auto size-5" />
          </td>
        </tr>
      ))}
    </>
  );
}
