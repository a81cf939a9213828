import fs from 'node:fs';
import { z } from 'zod';
import type { ProviderLimits } from '../../mail/shaping';
import { knownProvider, OTHER_LIMITS } from './providers';

/**
 * The operator's changes to the table, from DELIVERY_PROVIDER_LIMITS: a JSON object (inline, or a
 * file holding one) keyed by provider id (`google`, `orange`, …), `other` for every MX host we do
 * not know, or an MX host name for that one host; each value changes any of the three limits.
 *
 *   {"orange": {"messagesPerMinute": 120}, "other": {"connections": 10}, "mx.partner.example": {"messagesPerMinute": null}}
 */
export type LimitOverrides = Record<string, Partial<ProviderLimits>>;

const limitsSchema = z
  .object({
    connections: z.number().int().min(1).max(1000).optional(),
    messagesPerConnection: z.number().int().min(1).max(100_000).optional(),
    messagesPerMinute: z.number().positive().max(1_000_000).nullable().optional(),
  })
  .strict();
const HOST = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

export class LimitsError extends Error {}

/** Parses and checks DELIVERY_PROVIDER_LIMITS; throws a LimitsError naming what is wrong. */
export function parseLimitOverrides(value: string | undefined): LimitOverrides {
  if (!value || value.trim() === '') return {};
  let source = value.trim();
  if (!source.startsWith('{')) {
    try {
      source = fs.readFileSync(source, 'utf8');
    } catch {
      throw new LimitsError(`is neither a JSON object nor a readable file (got "${value}")`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new LimitsError(`is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new LimitsError('must be a JSON object keyed by provider');
  const overrides: LimitOverrides = {};
  for (const [key, limits] of Object.entries(parsed)) {
    const id = key.toLowerCase().replace(/\.$/, '');
    if (id !== 'other' && !knownProvider(id) && !HOST.test(id)) throw new LimitsError(`names "${key}", which is neither a known provider, "other", nor an MX host name`);
    const checked = limitsSchema.safeParse(limits);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new LimitsError(`"${key}"${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`);
    }
    overrides[id] = checked.data;
  }
  return overrides;
}

/** A provider's limits: the table's (or "other"), with the operator's changes for "other", then for the provider itself. */
export function limitsFor(id: string, overrides: LimitOverrides): ProviderLimits {
  const known = knownProvider(id);
  return { ...(known?.limits ?? { ...OTHER_LIMITS, ...overrides.other }), ...overrides[id] };
}
