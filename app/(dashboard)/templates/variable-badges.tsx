import { Badge } from '../../components/badge';

/** The variables a template reads, as badges: the first `limit`, then how many more. */
export function VariableBadges({ variables, limit = Infinity, empty = 'None' }: { variables: string[]; limit?: number; empty?: string }) {
  if (variables.length === 0) return <span className="text-sm text-slate-400">{empty}</span>;
  const shown = variables.slice(0, limit);
  const more = variables.length - shown.length;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Variables" data-testid="template-variables">
      {shown.map((name) => (
        <li key={name}>
          <Badge tone="accent" className="font-mono">
            {name}
          </Badge>
        </li>
      ))}
      {more > 0 && (
        <li title={variables.slice(limit).join(', ')}>
          <Badge tone="muted">+{more} more</Badge>
        </li>
      )}
    </ul>
  );
}
