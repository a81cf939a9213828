import type { CustomEventFieldType } from '@/db/schema';
import { validationError } from '../../../errors';
import type { EventSchema } from './declarations';

/** The types a declared field may have (Resend's). */
export const EVENT_FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const satisfies readonly CustomEventFieldType[];

/** A sent event's payload: at most this much JSON, and this deep (docs/automations.md, "Sending events"). */
export const PAYLOAD_LIMITS = { bytes: 32 * 1024, depth: 5 } as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((deepest, child) => Math.max(deepest, depthOf(child)), 0);
}

/** 400 when the payload is larger or deeper than a run keeps. Its own object is depth 1. */
export function refuseOversizedPayload(payload: Record<string, unknown>): void {
  const bytes = Buffer.byteLength(JSON.stringify(payload), 'utf8');
  if (bytes > PAYLOAD_LIMITS.bytes) throw validationError(`payload: must be at most ${PAYLOAD_LIMITS.bytes / 1024} KiB of JSON (it is ${Math.ceil(bytes / 1024)} KiB)`);
  if (depthOf(payload) > PAYLOAD_LIMITS.depth) throw validationError(`payload: must nest at most ${PAYLOAD_LIMITS.depth} objects or arrays deep`);
}

const fits: Record<CustomEventFieldType, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  date: (value) => typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)),
};

const WORDS: Record<CustomEventFieldType, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  date: 'an ISO 8601 date or date-time string (2026-05-01, 2026-05-01T09:00:00Z)',
};

/**
 * 400 naming the first field of the declared schema whose value is not of its type. A field the
 * schema names may be left out; fields it does not name pass unchecked (Resend's schema is a
 * type for each field it lists, not a closed shape).
 */
export function refuseMistypedPayload(eventName: string, schema: EventSchema, payload: Record<string, unknown>): void {
  for (const [field, type] of Object.entries(schema)) {
    if (!Object.hasOwn(payload, field)) continue;
    if (!fits[type](payload[field])) throw validationError(`payload.${field}: must be ${WORDS[type]}, as the event "${eventName}" declares it`);
  }
}
