import type { Deps } from '../../deps';
import { validationError } from '../../errors';
import { EVERY_DOMAIN } from './shaper';
import { deliveryStatus, type ProviderStatus } from './status';

const normal = (value: string) => value.trim().toLowerCase().replace(/\.$/, '');

const statusOf = async (deps: Pick<Deps, 'db' | 'shaping' | 'config' | 'clock'>, provider: string): Promise<ProviderStatus | null> =>
  (await deliveryStatus(deps)).find((entry) => entry.provider === provider) ?? null;

/**
 * The operator pauses a provider, for one sending domain or (without one) for every one, until
 * resumed: its recipients are held, not tried, and retried until their window ends.
 */
export async function pauseProvider(deps: Pick<Deps, 'db' | 'shaping' | 'config' | 'clock'>, input: { provider: string; sendingDomain?: string; reason?: string }) {
  const provider = normal(input.provider);
  if (provider === '') throw validationError('--provider is required');
  deps.shaping.setPause({
    provider,
    sendingDomain: input.sendingDomain ? normal(input.sendingDomain) : EVERY_DOMAIN,
    at: deps.clock.now(),
    until: null,
    by: 'operator',
    reason: input.reason?.trim() || 'paused by the operator',
  });
  await deps.shaping.settled();
  return { provider, status: await statusOf(deps, provider) };
}

/** Resumes one sending domain's pause, or (without one) every pause of the provider; rates adapted by replies stay as they are. */
export async function resumeProvider(deps: Pick<Deps, 'db' | 'shaping' | 'config' | 'clock'>, input: { provider: string; sendingDomain?: string }) {
  const provider = normal(input.provider);
  if (provider === '') throw validationError('--provider is required');
  await deps.shaping.sync();
  const paused = (await deliveryStatus(deps)).find((entry) => entry.provider === provider)?.lanes.filter((lane) => lane.paused) ?? [];
  const domains = input.sendingDomain ? [normal(input.sendingDomain)] : paused.map((lane) => (lane.sendingDomain === '*' ? EVERY_DOMAIN : lane.sendingDomain));
  for (const domain of new Set([...domains, ...(input.sendingDomain ? [] : [EVERY_DOMAIN])])) deps.shaping.clearPause(provider, domain);
  await deps.shaping.settled();
  return { provider, status: await statusOf(deps, provider) };
}
