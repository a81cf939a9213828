/** Addresses one per line, each kept whole. */
export function AddressList({ addresses, testId }: { addresses: string[]; testId?: string }) {
  if (addresses.length === 0) return <span className="text-slate-400">None</span>;
  return (
    <ul className="space-y-0.5" data-testid={testId}>
      {addresses.map((address, index) => (
        <li key={index} className="break-all">
          {address}
        </li>
      ))}
    </ul>
  );
}
