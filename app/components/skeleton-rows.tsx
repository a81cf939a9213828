import { Skeleton } from './skeleton';

/** Placeholder rows while a table loads: one skeleton per cell, sized like the content to come. */
export function SkeletonRows({ cells, count = 3, testId }: { cells: string[]; count?: number; testId: string }) {
  return (
    <>
      {Array.from({ length: count }, (_, row) => (
        <tr key={row} data-testid={testId}>
          {cells.map((size, cell) => (
            <td key={cell} className={cell === 0 ? 'py-4 pr-4 pl-5' : cell === cells.length - 1 ? 'py-4 pr-5 pl-4' : 'px-4 py-4'}>
              <Skeleton className={size} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
