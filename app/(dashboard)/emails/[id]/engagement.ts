import { formatCount } from '../../../lib/format';
import type { EmailEvent } from '../types';

/** "3 opens (2 by machines)": recorded opens or clicks, with how many were a proxy's or scanner's (docs/tracking.md). */
export function engagementOf(events: EmailEvent[], type: 'email.opened' | 'email.clicked', noun: [string, string]): string {
  const recorded = events.filter((event) => event.type === type);
  const machines = recorded.filter((event) => event.data.machine === true).length;
  const phrase = `${formatCount(recorded.length)} ${recorded.length === 1 ? noun[0] : noun[1]}`;
  return machines > 0 ? `${phrase} (${formatCount(machines)} by ${machines === 1 ? 'a machine' : 'machines'})` : phrase;
}
