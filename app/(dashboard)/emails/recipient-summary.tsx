/** The first recipient, and how many more (all of them in the tooltip). */
export function RecipientSummary({ to }: { to: string[] }) {
  const [first, ...rest] = to;
  return (
    <span className="flex min-w-0 items-baseline gap-1.5" title={to.join(', ')}>
      <span className="truncate">{first}</span>
      {rest.length > 0 && <span className="shrink-0 text-xs text-slate-400">+{rest.length}</span>}
    </span>
  );
}
