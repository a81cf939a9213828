import { describe, expect, it } from 'vitest';
import { EVENT_GROUPS } from '@/app/(dashboard)/webhooks/event-groups';
import { errorBeyondStatus } from '@/app/(dashboard)/webhooks/[id]/attempt-error';
import { fieldErrors } from '@/app/lib/field-errors';
import { EVENT_TYPES } from '@/server/vocabulary/event-types';

/** A failed tRPC call as the dashboard's client sees it: the server's envelope under `data`. */
const failure = (code: string, error: string) => ({ data: { envelope: { status: 400, code, error } } });

describe('server validation errors split by field', () => {
  const fields = ['url', 'events'] as const;

  it('puts each problem under the field it names', () => {
    const error = failure('VALIDATION_ERROR', 'url: http://10.0.0.1/ points to 10.0.0.1, a private network address (10.0.0.0/8); only public addresses are allowed');
    expect(fieldErrors(error, fields)).toEqual({ byField: { url: 'http://10.0.0.1/ points to 10.0.0.1, a private network address (10.0.0.0/8); only public addresses are allowed' }, other: null });
  });

  it('keeps a "; " inside one problem, and splits where the next field starts', () => {
    const message = 'events: "email.nope" is not an event type; see the event catalogue in the API reference, or use "*"';
    expect(fieldErrors(failure('VALIDATION_ERROR', message), fields).byField).toEqual({ events: message.slice('events: '.length) });
    const two = failure('VALIDATION_ERROR', 'url: must be at most 4096 characters; events.3: Too big: expected string to have <=100 characters');
    expect(fieldErrors(two, fields).byField).toEqual({ url: 'must be at most 4096 characters', events: 'Too big: expected string to have <=100 characters' });
  });

  it('leaves for an alert what names no field of the form, and every other error', () => {
    const unknownField = failure('VALIDATION_ERROR', 'id: must be a UUID');
    expect(fieldErrors(unknownField, fields)).toEqual({ byField: {}, other: unknownField });
    const refused = failure('PLAN_LIMIT_EXCEEDED', 'The Free plan allows 1 webhook endpoint; delete one or upgrade');
    expect(fieldErrors(refused, fields)).toEqual({ byField: {}, other: refused });
    expect(fieldErrors(null, fields)).toEqual({ byField: {}, other: null });
  });
});

describe('the event picker', () => {
  it('groups the whole catalogue by prefix, in catalogue order', () => {
    expect(EVENT_GROUPS.map((group) => group.prefix)).toEqual(['email', 'domain', 'contact', 'broadcast', 'automation']);
    expect(EVENT_GROUPS.flatMap((group) => group.types)).toEqual(EVENT_TYPES);
    expect(EVENT_GROUPS.every((group) => group.types.every((type) => type.startsWith(`${group.prefix}.`)))).toBe(true);
  });
});

describe('an attempt error beside its status code', () => {
  it('drops a plain "answered N" and keeps anything that says more', () => {
    expect(errorBeyondStatus({ responseStatus: 503, error: 'answered 503' })).toBeNull();
    expect(errorBeyondStatus({ responseStatus: 200, error: null })).toBeNull();
    const redirect = 'answered 301 (a redirect to https://example.com/); redirects are not followed, answer 2xx directly';
    expect(errorBeyondStatus({ responseStatus: 301, error: redirect })).toBe(redirect);
    expect(errorBeyondStatus({ responseStatus: null, error: 'the request timed out after 10000 ms' })).toBe('the request timed out after 10000 ms');
  });
});
