import { Badge, type BadgeTone } from '../../components/badge';
import type { WebhookHealth } from './types';

/** The share of attempts answered 2xx, rounded down so that a single failure never reads as 100%. */
const successRate = (health: WebhookHealth) => Math.floor((health.succeeded24h / health.attempts24h) * 1000) / 10;

/** Green when (nearly) everything arrives, amber when some fail, red when many do. */
const toneOf = (rate: number): BadgeTone => (rate >= 95 ? 'green' : rate >= 80 ? 'amber' : 'red');

/** How the endpoint did over the last 24 hours: its success rate, and out of how many attempts. */
export function HealthBadge({ health }: { health: WebhookHealth }) {
  if (health.attempts24h === 0) {
    return (
      <span data-testid="webhook-health" data-rate="">
        <Badge tone="muted">No attempts</Badge>
      </span>
    );
  }
  const rate = successRate(health);
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1" data-testid="webhook-health" data-rate={rate}>
      <Badge tone={toneOf(rate)}>{rate}% succeeded</Badge>
      <span className="text-xs whitespace-nowrap text-slate-500">
        {health.succeeded24h} of {health.attempts24h} {health.attempts24h === 1 ? 'attempt' : 'attempts'}
      </span>
    </span>
  );
}
