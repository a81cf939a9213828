import { Skeleton } from '../../components/skeleton';

/** Placeholder rows while the list loads. */
export function ApiKeySkeletonRows({ count = 3 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <tr key={index} data-testid="api-key-skeleton">
          <td className="py-4 pr-4 pl-5">
            <Skeleton className="h-4 w-32" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-4 w-28" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-5 w-24 rounded-md" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-5 w-12 rounded-md" />
          </td>
          <td className="px-4 py-4">
            <Skeleton className="h-4 w-20" />
          </td>
          <td className="py-4 pr-5 pl-4">
            <Skeleton className="ml-auto h-8 w-16 rounded-md" />
          </td>
        </tr>
      ))}
    </>
  );
}
