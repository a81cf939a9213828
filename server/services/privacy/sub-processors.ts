import type { Config } from '../../config';
import { relayHostOf } from './service-hosts';

export interface SubProcessor {
  name: string;
  purpose: string;
  location: string;
  /** `configured`: named by the operator (PRIVACY_SUBPROCESSORS); `relay`: the smarthost every message goes through (SMTP_RELAY_URL). */
  source: 'configured' | 'relay';
}

/**
 * Who else processes the organization's data for this service. None by default: the operator runs
 * every part (database, workers, Inngest when used) itself. A configured relay receives every
 * message, so it is always listed; the operator names the rest (hosting, backups) in
 * PRIVACY_SUBPROCESSORS.
 */
export function subProcessors(config: Pick<Config, 'privacySubprocessors' | 'smtpRelayUrl'>): SubProcessor[] {
  const listed: SubProcessor[] = config.privacySubprocessors.map((entry) => ({ ...entry, source: 'configured' }));
  const relay = relayHostOf(config);
  if (relay) listed.push({ name: relay.label, purpose: 'SMTP relay (smarthost): receives every message and delivers it to the recipients’ mail servers', location: 'as agreed with the operator', source: 'relay' });
  return listed;
}
