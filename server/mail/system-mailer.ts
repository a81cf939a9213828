import { deliver, type DeliveryOptions } from './delivery';
import type { OutgoingMessage } from './message';
import type { DeliveryOutcome } from './outcomes';

/**
 * Hands one of the service's own messages (one recipient) to the mail system and answers what
 * became of it; never throws for a refusal. A seam for tests that need somewhere else to send.
 */
export interface SystemMailer {
  send(message: OutgoingMessage): Promise<DeliveryOutcome>;
}

/**
 * The delivery function of customers' mail, with the same options (SMTP_RELAY_URL, or the MX
 * looked up and connected to through DNS_SERVERS under the private-address rule), so a change
 * to how mail is delivered carries the service's own along.
 */
export function createSystemMailer(options: DeliveryOptions): SystemMailer {
  return {
    async send(message) {
      const [outcome] = await deliver(message, options);
      if (!outcome) throw new Error(`system email ${message.emailId} has no recipient`);
      return outcome;
    },
  };
}
