import { describe, expect, it } from 'vitest';
import { readVariables, variablesSkeleton, withVariables } from '@/app/(dashboard)/templates/variables-json';
import { createInput, sameValues, TEMPLATE_FIELDS, updateInput, valuesOf } from '@/app/(dashboard)/templates/template-values';
import { DELETED_CHOICE, templateChoices, unpublished, type ChoiceRules, type ChoosableTemplate, type Unusable } from '@/app/(dashboard)/templates/template-choices';
import type { Template } from '@/app/(dashboard)/templates/types';
import { fieldErrors } from '@/app/lib/field-errors';

const failure = (code: string, error: string) => ({ data: { envelope: { status: 400, code, error } } });

const template: Template = {
  id: '01a2138a-9daa-71a5-b82d-16cd67318e96',
  name: 'Welcome',
  alias: null,
  subject: 'Welcome, {{ name | default: "there" }}',
  html: '<h1>Hello {{ name }}</h1>',
  text: null,
  variables: ['name'],
  status: 'published',
  publishedAt: '2026-11-25T10:00:00.000Z',
  declaredVariables: [],
  from: null,
  replyTo: [],
  drafts: false,
  createdAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
};

describe("the preview's variables JSON", () => {
  it('starts from the template variables, empty', () => {
    expect(variablesSkeleton(['name', 'plan'])).toBe('{\n  "name": "",\n  "plan": ""\n}');
    expect(variablesSkeleton([])).toBe('{}');
  });

  it('sends JSON that parses, normalized; nothing for an empty field; says why it does not parse', () => {
    expect(readVariables('{ "name":  "Ada" }')).toEqual({ ok: true, json: '{"name":"Ada"}' });
    expect(readVariables('  \n')).toEqual({ ok: true, json: undefined });
    // Whether it is an object is the server's rule: it answers a 400 naming `variables`.
    expect(readVariables('[1]')).toEqual({ ok: true, json: '[1]' });
    const broken = readVariables('{ "name": "Ada", ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.error).toMatch(/^Not valid JSON: /);
  });

  it('adds the variables a save found, keeping the values typed; leaves text that is not an object alone', () => {
    expect(JSON.parse(withVariables('{ "name": "Ada", "extra": 1 }', ['name', 'company']))).toEqual({ name: 'Ada', extra: 1, company: '' });
    const unchanged = '{ "name": "Ada" }';
    expect(withVariables(unchanged, ['name'])).toBe(unchanged);
    expect(withVariables('{ "name": ', ['name', 'company'])).toBe('{ "name": ');
    expect(withVariables('[1]', ['name'])).toBe('[1]');
    expect(withVariables('', ['name'])).toBe('{\n  "name": ""\n}');
  });
});

describe("the editor's values", () => {
  it('reads a missing part as an empty field', () => {
    expect(valuesOf(template)).toEqual({ name: 'Welcome', subject: template.subject, html: template.html, text: '' });
    expect(sameValues(valuesOf(template), { ...valuesOf(template) })).toBe(true);
    expect(sameValues(valuesOf(template), { ...valuesOf(template), text: 'Hi' })).toBe(false);
  });

  it('creates without the parts left empty', () => {
    expect(createInput({ name: ' Welcome ', subject: 'Hi', html: '', text: 'Hello' })).toEqual({ name: 'Welcome', subject: 'Hi', html: undefined, text: 'Hello' });
  });

  it('updates only what changed, and an emptied part is removed', () => {
    expect(updateInput(template, valuesOf(template))).toEqual({ id: template.id, name: undefined, subject: undefined, html: undefined, text: undefined });
    expect(updateInput(template, { ...valuesOf(template), html: '', text: 'Hello {{ name }}' })).toEqual({
      id: template.id,
      name: undefined,
      subject: undefined,
      html: null,
      text: 'Hello {{ name }}',
    });
    expect(updateInput(template, { ...valuesOf(template), name: 'Welcome ' }).name).toBeUndefined();
  });

  it("puts the server's Liquid errors under the part they name", () => {
    const error = failure('VALIDATION_ERROR', 'html: line 3: tag {% if vip %} not closed');
    expect(fieldErrors(error, TEMPLATE_FIELDS)).toEqual({ byField: { html: 'line 3: tag {% if vip %} not closed' }, other: null });
    const text = failure('VALIDATION_ERROR', 'text: line 1: the for tag is not allowed: loops are not allowed in templates');
    expect(fieldErrors(text, TEMPLATE_FIELDS).byField).toEqual({ text: 'line 1: the for tag is not allowed: loops are not allowed in templates' });
  });
});

describe('the template select every page picks a template with', () => {
  const at = '2026-11-25T10:00:00.000Z';
  const news: ChoosableTemplate = { id: 'a1', name: 'News', publishedAt: at, variables: ['name'] };
  const confirm: ChoosableTemplate = { id: 'b2', name: 'Confirm', publishedAt: at, variables: ['confirmation_url'] };
  const draft: ChoosableTemplate = { id: 'c3', name: 'Draft', publishedAt: null, variables: ['confirmation_url'] };
  const all = [news, confirm, draft];
  const labels = (templates: ChoosableTemplate[], rules: ChoiceRules) => templateChoices(templates, rules).options.map((option) => [option.value, option.label, option.disabled]);

  // As the broadcast composer has it: every template, a placeholder until one is chosen.
  const broadcast = (value: string): ChoiceRules => ({ value });
  // As an audience's re-engagement email has it: published ones only.
  const reengagement = (value: string): ChoiceRules => ({ value, unusable: unpublished, unusableShown: 'hidden', placeholder: 'Choose a published template' });
  // As a form's confirmation email has it: the built-in text, and the templates that cannot confirm listed disabled.
  const confirming: Unusable = (template) => unpublished(template) ?? (template.variables.includes('confirmation_url') ? null : 'no {{ confirmation_url }}');
  const form = (value: string): ChoiceRules => ({ value, unusable: confirming, unusableShown: 'disabled', noneChoice: 'Built-in text', unknownChoice: "This form's template" });

  it('offers every template to a broadcast, with a placeholder until one is chosen, and says when the chosen one was deleted', () => {
    expect(labels(all, broadcast(''))).toEqual([
      ['', 'Choose a template', true],
      ['a1', 'News', false],
      ['b2', 'Confirm', false],
      ['c3', 'Draft', false],
    ]);
    expect(templateChoices(all, broadcast('')).selected).toBe('');
    expect(labels(all, broadcast('b2'))).toEqual([
      ['a1', 'News', false],
      ['b2', 'Confirm', false],
      ['c3', 'Draft', false],
    ]);
    expect(templateChoices(all, broadcast('b2')).selected).toBe('b2');
    const gone = templateChoices(all, broadcast('zz'));
    expect([gone.selected, gone.options[0]]).toEqual(['', { value: '', label: DELETED_CHOICE, disabled: true }]);
    expect(templateChoices([], broadcast('')).empty).toBe(true);
  });

  it('offers only published templates for re-engagement, and is empty when none is', () => {
    expect(labels(all, reengagement(''))).toEqual([
      ['', 'Choose a published template', true],
      ['a1', 'News', false],
      ['b2', 'Confirm', false],
    ]);
    expect(templateChoices(all, reengagement('a1')).selected).toBe('a1');
    expect(templateChoices([draft], reengagement('')).empty).toBe(true);
    expect(templateChoices(all, reengagement('c3')).selected).toBe('');
  });

  it("offers a form the built-in text, lists the templates that cannot confirm disabled with the reason, and keeps a choice it does not list", () => {
    expect(labels(all, form(''))).toEqual([
      ['', 'Built-in text', false],
      ['a1', 'News (no {{ confirmation_url }})', true],
      ['b2', 'Confirm', false],
      ['c3', 'Draft (never published)', true],
    ]);
    expect(templateChoices(all, form('')).selected).toBe('');
    expect(templateChoices([], form('')).empty).toBe(false);
    // A choice that can no longer confirm (edited since) stays selectable, so the select shows it.
    expect(labels(all, form('a1'))[1]).toEqual(['a1', 'News (no {{ confirmation_url }})', false]);
    expect(templateChoices(all, form('a1')).selected).toBe('a1');
    // Past the first 100: kept as the form's template.
    expect(labels(all, form('zz')).slice(0, 2)).toEqual([
      ['', 'Built-in text', false],
      ['zz', "This form's template", false],
    ]);
    expect(templateChoices(all, form('zz')).selected).toBe('zz');
  });
});
