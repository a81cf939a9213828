import { describe, expect, it } from 'vitest';
import { NAV_ITEMS } from '@/app/(dashboard)/nav-items';
import { inputText, parseInput, propertyChanges, propertyErrors, typeLabel, valueText } from '@/app/(dashboard)/contacts/property-values';
import type { ContactProperty } from '@/app/(dashboard)/contacts/types';
import { DEFAULT_SUBSCRIPTIONS } from '@/app/(dashboard)/contacts/topics/default-subscription';
import { draftOf, rulesInputOf, segmentErrors, withKey, type ConditionDraft } from '@/app/(dashboard)/audiences/rules/rule-draft';
import { conditionWords, matchWords, operatorsFor } from '@/app/(dashboard)/audiences/rules/rule-words';

// Issue 35 item 9: what the contact pages compute before calling the API. The values a form
// sends are typed JSON (the server checks them again), only what changed is sent, and the API's
// `properties.<key>: why` lands under the field of that key.

/** A failed tRPC call as the dashboard's client sees it: the server's envelope under `data`. */
const failure = (code: string, error: string) => ({ data: { envelope: { status: 400, code, error } } });

const property = (key: string, type: ContactProperty['type'], fallbackValue: ContactProperty['fallbackValue'] = null): ContactProperty => ({
  id: `00000000-0000-7000-8000-00000000000${key.length}`,
  key,
  type,
  fallbackValue,
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
});

const PROPERTIES = [property('plan', 'string', 'Free'), property('seats', 'number'), property('vip', 'boolean', false), property('renews_on', 'date')];

describe('a value typed into a property field', () => {
  it('is JSON of the property type; empty is no value', () => {
    expect(parseInput('string', ' Pro ')).toEqual({ value: ' Pro ' });
    expect(parseInput('number', '42')).toEqual({ value: 42 });
    expect(parseInput('number', ' -1.5 ')).toEqual({ value: -1.5 });
    expect(parseInput('number', '0')).toEqual({ value: 0 });
    expect(parseInput('boolean', 'false')).toEqual({ value: false });
    expect(parseInput('boolean', 'true')).toEqual({ value: true });
    expect(parseInput('date', '2026-11-30')).toEqual({ value: '2026-11-30' });
    for (const type of ['string', 'number', 'boolean', 'date'] as const) expect(parseInput(type, '')).toEqual({ value: null });
  });

  it('is refused in the server’s words when it is no value of the type', () => {
    expect(parseInput('number', 'forty')).toEqual({ error: 'must be a number' });
    expect(parseInput('number', '   ')).toEqual({ error: 'must be a number' });
    expect(parseInput('number', 'Infinity')).toEqual({ error: 'must be a number' });
    expect(parseInput('boolean', 'yes')).toEqual({ error: 'must be true or false' });
    expect(parseInput('date', '2026-02-30')).toEqual({ error: 'is not a real day' });
    expect(parseInput('string', 'x'.repeat(2_001))).toEqual({ error: 'must be at most 2000 characters' });
  });

  it('shows a stored date-time as its UTC day, and every value as merge tags print it', () => {
    expect(inputText('date', '2026-11-30T09:00:00.000Z')).toBe('2026-11-30');
    expect(inputText('date', '2026-11-30')).toBe('2026-11-30');
    expect(inputText('number', 3)).toBe('3');
    expect(inputText('boolean', false)).toBe('false');
    expect(inputText('string', undefined)).toBe('');
    expect(valueText(null)).toBe('');
    expect(valueText(true)).toBe('true');
    expect(typeLabel('boolean')).toBe('True or false');
  });
});

describe('the PATCH of a contact’s values', () => {
  const stored = { plan: 'Pro', seats: 3, renews_on: '2026-11-30T09:00:00.000Z' };
  const untouched = { plan: 'Pro', seats: '3', vip: '', renews_on: '2026-11-30' };

  it('is empty when nothing changed, a date-time shown as its day included', () => {
    expect(propertyChanges(PROPERTIES, stored, untouched)).toEqual({ changes: {}, errors: {} });
  });

  it('holds only the values changed, null for a value emptied, and nothing for an empty field that had none', () => {
    expect(propertyChanges(PROPERTIES, stored, { ...untouched, plan: '', seats: '12', vip: 'true', renews_on: '2027-01-31' })).toEqual({
      changes: { plan: null, seats: 12, vip: true, renews_on: '2027-01-31' },
      errors: {},
    });
    expect(propertyChanges(PROPERTIES, {}, { plan: '', seats: '', vip: '', renews_on: '' })).toEqual({ changes: {}, errors: {} });
  });

  it('names each field whose text is no value of its type', () => {
    expect(propertyChanges(PROPERTIES, stored, { ...untouched, seats: 'many', vip: 'maybe' })).toEqual({
      changes: {},
      errors: { seats: 'must be a number', vip: 'must be true or false' },
    });
  });
});

describe('the API’s refusal of values', () => {
  const keys = ['plan', 'plan_2', 'seats'];

  it('lands under the field of each key it names', () => {
    expect(propertyErrors(failure('VALIDATION_ERROR', 'properties.seats: must be a number'), keys)).toEqual({ byKey: { seats: 'must be a number' }, other: null });
    expect(propertyErrors(failure('VALIDATION_ERROR', 'properties.plan_2: must be a string; properties.plan: must be at most 2000 characters'), keys)).toEqual({
      byKey: { plan_2: 'must be a string', plan: 'must be at most 2000 characters' },
      other: null,
    });
  });

  it('goes to the alert when it names no field of the form, or is no validation error', () => {
    const unknown = failure('VALIDATION_ERROR', 'properties.gone: no contact property has this key; create it first (POST /contact-properties)');
    expect(propertyErrors(unknown, keys)).toEqual({ byKey: {}, other: unknown });
    const testMode = failure('FORBIDDEN', 'Test mode is read-only here');
    expect(propertyErrors(testMode, keys)).toEqual({ byKey: {}, other: testMode });
    expect(propertyErrors(unknown, [])).toEqual({ byKey: {}, other: unknown });
    expect(propertyErrors(null, keys)).toEqual({ byKey: {}, other: null });
  });

  it('takes a key as a key, not as a pattern', () => {
    // A dot in a pattern would match any character: "plan" must not claim "planX".
    expect(propertyErrors(failure('VALIDATION_ERROR', 'propertiesXplan: odd'), keys).other).not.toBeNull();
  });
});

describe('the navigation and the topics', () => {
  it('offers Contacts right after Audiences', () => {
    const hrefs = NAV_ITEMS.map((item) => item.href);
    expect(hrefs.indexOf('/contacts')).toBe(hrefs.indexOf('/audiences') + 1);
  });

  it('says what each default subscription means', () => {
    expect(DEFAULT_SUBSCRIPTIONS.opt_in.label).toBe('Opt-in');
    expect(DEFAULT_SUBSCRIPTIONS.opt_out.label).toBe('Opt-out');
    // As the server sends: a contact who never chose gets an opt_in topic's broadcasts, not an opt_out one's.
    expect(DEFAULT_SUBSCRIPTIONS.opt_in.meaning).toMatch(/until they leave/);
    expect(DEFAULT_SUBSCRIPTIONS.opt_out.meaning).toMatch(/once they join/);
  });
});

describe("a rule segment's rules in the dashboard", () => {
  it('offers the comparisons the server allows for each type', () => {
    expect(operatorsFor('string')).toEqual(['equals', 'not_equals', 'contains', 'exists', 'not_exists']);
    expect(operatorsFor('number')).toEqual(['equals', 'not_equals', 'greater_than', 'less_than', 'exists', 'not_exists']);
    expect(operatorsFor('date')).toEqual(['equals', 'not_equals', 'greater_than', 'less_than', 'exists', 'not_exists']);
    expect(operatorsFor('boolean')).toEqual(['equals', 'not_equals', 'exists', 'not_exists']);
  });

  it('says each condition in words', () => {
    expect(matchWords('all')).toBe('Contacts who match all of these');
    expect(matchWords('any')).toBe('Contacts who match any of these');
    expect(conditionWords({ type: 'property', key: 'plan', operator: 'equals', value: 'Pro' }, PROPERTIES)).toBe('plan is "Pro"');
    expect(conditionWords({ type: 'property', key: 'seats', operator: 'greater_than', value: 30 }, PROPERTIES)).toBe('seats is more than 30');
    expect(conditionWords({ type: 'property', key: 'renews_on', operator: 'less_than', value: '2026-11-30' }, PROPERTIES)).toBe('renews_on is before 2026-11-30');
    expect(conditionWords({ type: 'property', key: 'vip', operator: 'not_exists' }, PROPERTIES)).toBe('vip has no value');
    expect(conditionWords({ type: 'engagement', activity: 'opened_or_clicked', withinDays: 30 }, PROPERTIES)).toBe('Opened or clicked a broadcast in the last 30 days');
    expect(conditionWords({ type: 'engagement', activity: 'delivered', withinDays: 1, negate: true }, PROPERTIES)).toBe('Received no broadcast in the last day');
  });

  it('sends the rules as the API takes them, and says which condition is no rule before sending', () => {
    const draft = {
      match: 'any' as const,
      conditions: [
        { type: 'property', key: 'seats', operator: 'greater_than', value: ' 30 ' },
        { type: 'property', key: 'plan', operator: 'exists', value: 'ignored' },
        { type: 'engagement', activity: 'clicked', withinDays: '7', negate: true },
      ] satisfies ConditionDraft[],
    };
    expect(rulesInputOf(draft, PROPERTIES)).toEqual({
      rules: {
        match: 'any',
        conditions: [
          { type: 'property', key: 'seats', operator: 'greater_than', value: 30 },
          { type: 'property', key: 'plan', operator: 'exists' },
          { type: 'engagement', activity: 'clicked', within_days: 7, negate: true },
        ],
      },
    });
    const wrong = {
      match: 'all' as const,
      conditions: [
        { type: 'property', key: 'seats', operator: 'equals', value: 'thirty' },
        { type: 'property', key: 'plan', operator: 'equals', value: '' },
        { type: 'engagement', activity: 'opened', withinDays: '1.5', negate: false },
        { type: 'property', key: 'gone', operator: 'equals', value: 'x' },
      ] satisfies ConditionDraft[],
    };
    expect(rulesInputOf(wrong, PROPERTIES)).toEqual({
      errors: { 0: 'must be a number', 1: 'give a value to compare with', 2: 'the days must be a whole number from 1 to 3,650', 3: 'choose a property' },
    });
  });

  it('reads saved rules back into the editor, and starts a comparison again when the property changes type', () => {
    const draft = draftOf(
      { match: 'all', conditions: [{ type: 'property', key: 'renews_on', operator: 'greater_than', value: '2026-11-30T09:00:00.000Z' }, { type: 'engagement', activity: 'opened', withinDays: 14 }] },
      PROPERTIES,
    );
    expect(draft.conditions).toEqual([
      { type: 'property', key: 'renews_on', operator: 'greater_than', value: '2026-11-30' },
      { type: 'engagement', activity: 'opened', withinDays: '14', negate: false },
    ]);
    expect(withKey({ type: 'property', key: 'seats', operator: 'greater_than', value: '3' }, 'plan', PROPERTIES)).toEqual({ type: 'property', key: 'plan', operator: 'equals', value: '' });
    expect(withKey({ type: 'property', key: 'seats', operator: 'not_exists', value: '' }, 'plan', PROPERTIES)).toEqual({ type: 'property', key: 'plan', operator: 'not_exists', value: '' });
  });

  it("puts the API's refusal of a condition under that condition", () => {
    const refused = segmentErrors(failure('VALIDATION_ERROR', 'rules.conditions.1.key: no contact property has the key "seats"; name: must not be empty'));
    expect(refused.byCondition).toEqual({ 1: 'no contact property has the key "seats"' });
    expect(refused.name).toBe('must not be empty');
    expect(refused.other).toBeNull();
    expect(segmentErrors(failure('VALIDATION_ERROR', 'rules.conditions: at most 20 conditions')).rules).toBe('at most 20 conditions');
    expect(segmentErrors(failure('CONFLICT', 'The segment "A" is a list')).other).toBeTruthy();
  });
});
