import { Badge, type BadgeTone } from '../../../components/badge';
import type { BounceClass } from '@/server/services/bounces/classify';

/** The badge of each class of `data.bounce` (docs/bounces.md, "Bounces explained"). */
const CLASSES: Record<BounceClass, { label: string; tone: BadgeTone }> = {
  mailbox_unknown: { label: 'Mailbox unknown', tone: 'red' },
  mailbox_full: { label: 'Mailbox full', tone: 'amber' },
  domain_missing: { label: 'Domain missing', tone: 'red' },
  spam_block: { label: 'Blocked as spam', tone: 'fuchsia' },
  policy: { label: 'Policy / authentication', tone: 'violet' },
  greylisted: { label: 'Greylisted', tone: 'neutral' },
  rate_limited: { label: 'Rate limited', tone: 'amber' },
  message_too_large: { label: 'Message too large', tone: 'orange' },
  tls_required: { label: 'TLS required', tone: 'blue' },
  other: { label: 'Other', tone: 'neutral' },
  complaint: { label: 'Spam complaint', tone: 'fuchsia' },
};

interface Bounce {
  class: string;
  explanation: string;
}

const isBounce = (value: unknown): value is Bounce =>
  typeof value === 'object' && value !== null && typeof (value as Bounce).class === 'string' && typeof (value as Bounce).explanation === 'string';

/** What a bounce, delay or complaint means and what to do, above the server's own words. */
export function BounceNote({ bounce }: { bounce: unknown }) {
  if (!isBounce(bounce)) return null;
  const known = CLASSES[bounce.class as BounceClass] as (typeof CLASSES)[BounceClass] | undefined;
  return (
    <div className="mt-1.5 rounded-md bg-slate-50 px-2.5 py-2 text-xs" data-testid="bounce-note" data-class={bounce.class}>
      <Badge tone={known?.tone ?? 'neutral'}>{known?.label ?? bounce.class}</Badge>
      <p className="mt-1 text-slate-700" data-testid="bounce-explanation">
        {bounce.explanation}
      </p>
    </div>
  );
}
