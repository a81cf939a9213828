import type { Deps } from '../../deps';
import { deliveryPausedEmail } from '@/emails/delivery-paused';
import { enqueueSystemEmail } from '../system-mail/queue';
import type { PauseAlert } from './shaper';

/**
 * A provider refused us for reputation and is paused: the operator hears of it in the log (error
 * level), in /metrics (eumail_delivery_provider_pauses_total and the paused gauge) and, when
 * OPERATOR_EMAIL is set, by mail. The mail is our own (system mail), which is not shaped: it goes
 * out even to a paused provider.
 */
export function raisePauseAlert(deps: Deps, alert: PauseAlert): void {
  const scope = alert.sendingDomain === null ? 'service' : 'domain';
  deps.log.error({ provider: alert.provider, sendingDomain: alert.sendingDomain ?? '*', reply: alert.reply, pausedUntil: alert.until.toISOString() }, `deliveries to ${alert.provider} paused: blocked for reputation`);
  deps.metrics.deliveryPaused(alert.provider, scope);
  const to = deps.config.operatorEmail;
  if (!to) return;
  void (async () => {
    const id = await enqueueSystemEmail(deps.db, deps, { organizationId: null, kind: 'delivery_paused', to, email: deliveryPausedEmail(alert) });
    deps.jobs.wake('system-mail', id);
  })().catch((error: unknown) => deps.log.error({ err: error }, 'the operator alert could not be queued'));
}
