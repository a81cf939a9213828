import { MegaphoneIcon, ServerIcon, type LucideIcon } from 'lucide-react';
import { Badge } from '../../components/badge';
import type { EmailSource } from './types';

// Neutral on purpose: the colours belong to the statuses beside it.
const SOURCE_STYLE: Record<Exclude<EmailSource, 'api'>, { label: string; icon: LucideIcon; title: string }> = {
  smtp: { label: 'via SMTP', icon: ServerIcon, title: 'Relayed through the SMTP gateway' },
  broadcast: { label: 'Broadcast', icon: MegaphoneIcon, title: 'A message of a broadcast' },
};

/** How the email came in, when not through the API (the usual way, so it goes unmarked). */
export function EmailSourceBadge({ source, muted = false }: { source: EmailSource; muted?: boolean }) {
  if (source === 'api') return null;
  const { label, icon: Icon, title } = SOURCE_STYLE[source];
  return (
    <span title={title} data-testid="email-source" data-source={source} className="inline-flex">
      <Badge tone={muted ? 'muted' : 'neutral'} className="gap-1">
        <Icon className="size-3" aria-hidden="true" />
        {label}
      </Badge>
    </span>
  );
}
