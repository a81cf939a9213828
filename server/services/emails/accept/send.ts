import type { Deps } from '../../../deps';
import type { Principal } from '../../shared/principal';
import { admit } from './admit';
import type { EmailRequest, SendEmailInput } from './input';

/**
 * Accepts one email: a batch of one through the admit door (admit.ts), its refusal thrown. With
 * an idempotency key, a repeat within 24 hours (even a concurrent one) answers with the first
 * email and stores nothing. An email from a template is stored as it renders.
 */
export async function sendEmail(deps: Deps, principal: Principal, request: EmailRequest<SendEmailInput>, via: 'api' | 'smtp' = 'api'): Promise<{ id: string }> {
  const { outcomes } = await admit(deps, { via, principal, kind: 'transactional', items: [{ request }] });
  const outcome = outcomes[0];
  if (!outcome) throw new Error('a single send ended without an outcome');
  if ('error' in outcome) throw outcome.error;
  return outcome;
}
