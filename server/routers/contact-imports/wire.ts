import { z } from 'zod';
import { CONTACT_PROPERTY_TYPES } from '@/db/schema';
import { validationError } from '../../errors';
import type { ColumnMap, ColumnRef } from '../../services/contact-imports/columns';
import { IMPORT_SEGMENTS_MAX, type ImportOptions } from '../../services/contact-imports/queue';
import { IMPORT_CONFLICT_MODES, SUBSCRIPTION_COLUMN_KINDS } from '../../vocabulary/contact-imports';
import { describeIssues } from '../../trpc/envelope';
import { nonBlank } from '../shared';

/** The text fields of `POST /contacts/imports` beside `file`; objects and arrays as JSON text, as Resend takes them. */
export const IMPORT_FIELDS = ['column_map', 'segments', 'topics', 'on_conflict', 'header', 'confirmed_consent'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

const columnRef = z.union([
  nonBlank(500, { empty: 'must name a column' }),
  z.number().int('must be a column title or a position (1 for the first column)').min(1, 'must be 1 or more').max(100_000),
]);

export const columnMapSchema = z
  .strictObject({
    email: columnRef.optional().describe('The address column (default: the column titled email)'),
    name: columnRef.optional().describe('Ours: the whole name; first and last names fill it in where it is empty'),
    first_name: columnRef.optional(),
    last_name: columnRef.optional(),
    unsubscribed: columnRef.optional().describe("Resend's: a yes unsubscribes the contact from everything; never subscribes one back"),
    subscription: z
      .strictObject({ column: columnRef, lists: z.enum(SUBSCRIPTION_COLUMN_KINDS).describe('What a yes in it means') })
      .optional()
      .describe("Ours: the subscription in the import's segments (no turns it off there, never back on)"),
    properties: z
      .record(z.string().min(1).max(50), z.union([columnRef, z.strictObject({ column: columnRef, type: z.enum(CONTACT_PROPERTY_TYPES).optional() })]))
      .refine((value) => Object.keys(value).length <= 100, 'at most 100 properties')
      .optional()
      .describe('Property key → its column; each value checked by the property type'),
  })
  .describe('Columns by title (as in the header) or position (1 for the first column)');

const segmentsSchema = z.array(z.union([z.uuid({ message: 'must be a segment id' }), z.strictObject({ id: z.uuid({ message: 'must be a segment id' }) })])).max(IMPORT_SEGMENTS_MAX, `at most ${IMPORT_SEGMENTS_MAX} segments`);
const topicsSchema = z.array(z.strictObject({ id: z.uuid({ message: 'must be a topic id' }), subscription: z.enum(['opt_in', 'opt_out']) })).max(50, 'at most 50 topics');

function json(field: ImportField, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw validationError(`${field}: is not valid JSON`);
  }
}

function parsed<T>(field: ImportField, schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationError(describeIssues(result.error.issues.map((issue) => ({ ...issue, path: [field, ...issue.path] }))));
}

const ref = (value: z.infer<typeof columnRef>): ColumnRef => value;

function columnMapOf(wire: z.infer<typeof columnMapSchema>): ColumnMap {
  return {
    email: wire.email,
    name: wire.name,
    firstName: wire.first_name,
    lastName: wire.last_name,
    unsubscribed: wire.unsubscribed,
    subscription: wire.subscription && { column: ref(wire.subscription.column), kind: wire.subscription.lists },
    properties:
      wire.properties &&
      Object.fromEntries(Object.entries(wire.properties).map(([key, value]) => [key, typeof value === 'object' ? { column: value.column, type: value.type } : { column: value }])),
  };
}

/** The form's text fields as the service's options: each one checked, named in the refusal (400). */
export function importOptionsOf(fields: ReadonlyMap<ImportField, string>): ImportOptions {
  const text = (field: ImportField) => fields.get(field)?.trim() || undefined;
  const columnMap = text('column_map');
  const segments = text('segments');
  const topics = text('topics');
  const onConflict = text('on_conflict');
  const header = text('header');
  const confirmedConsent = text('confirmed_consent');
  return {
    columnMap: columnMap === undefined ? undefined : columnMapOf(parsed('column_map', columnMapSchema, json('column_map', columnMap))),
    segmentIds: segments === undefined ? [] : parsed('segments', segmentsSchema, json('segments', segments)).map((segment) => (typeof segment === 'string' ? segment : segment.id)),
    topics: topics === undefined ? [] : parsed('topics', topicsSchema, json('topics', topics)),
    onConflict: onConflict === undefined ? 'skip' : parsed('on_conflict', z.enum(IMPORT_CONFLICT_MODES, { message: 'must be upsert or skip' }), onConflict),
    hasHeader: header === undefined ? true : parsed('header', z.enum(['true', 'false'], { message: 'must be true or false' }), header) === 'true',
    confirmedConsent: confirmedConsent === undefined ? false : parsed('confirmed_consent', z.enum(['true', 'false'], { message: 'must be true or false' }), confirmedConsent) === 'true',
  };
}
