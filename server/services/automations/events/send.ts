import type { Deps } from '../../../deps';
import type { Principal } from '../../shared/principal';
import { receiveEvent, type EventReceipt } from '../runs/receive';
import { declaredEvent } from './declarations';
import { refuseMistypedPayload, refuseOversizedPayload } from './payload';

export interface SentEvent {
  event: string;
  contact: { id: string } | { email: string };
  payload?: Record<string, unknown>;
}

/**
 * Resend's `events.send`: the payload bounded and, when the name is declared with a schema, its
 * fields checked against it; then the run engine records the event and starts and wakes runs
 * (test runs for a test key). The name's own rules are the edge's (a trigger's custom event name).
 */
export async function sendEvent(deps: Deps, principal: Principal, input: SentEvent): Promise<EventReceipt> {
  const payload = input.payload ?? {};
  refuseOversizedPayload(payload);
  const declared = await declaredEvent(deps.db, principal.organizationId, input.event);
  if (declared?.schema) refuseMistypedPayload(input.event, declared.schema, payload);
  return receiveEvent(deps, principal, { event: input.event, contact: input.contact, payload });
}
