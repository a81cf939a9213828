import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { audiences, contactProperties, templates, topics, type AutomationDefinition, type ContactPropertyType, type StoredStep } from '@/db/schema';
import { validationError } from '../../errors';
import { CONTACT_FIELDS, conditionFields, type Condition } from './conditions';
import type { AddToSegmentConfig, ContactUpdateConfig, DelayConfig, SendEmailConfig, WaitForEventConfig } from './step-configs';
import type { TriggerConfig } from './trigger';

// What a definition names must be the organization's: its published templates, its segments and
// topics, its contact properties (of the right type). A 400 names the step, as every other
// refusal of a definition does; another organization's id reads as "not one of yours".

interface Found {
  templates: Map<string, { published: boolean; from: string | null; name: string }>;
  segments: Map<string, { byRules: boolean; name: string }>;
  topics: Set<string>;
  properties: Map<string, ContactPropertyType>;
}

interface Wanted {
  templates: Set<string>;
  segments: Set<string>;
  topics: Set<string>;
}

function wantedOf(definition: AutomationDefinition): Wanted {
  const wanted: Wanted = { templates: new Set(), segments: new Set(), topics: new Set() };
  for (const { type, config } of definition.steps) {
    if (type === 'send_email') {
      const send = config as SendEmailConfig;
      wanted.templates.add(send.template.id);
      if (send.topic_id) wanted.topics.add(send.topic_id);
    }
    if (type === 'add_to_segment') wanted.segments.add((config as AddToSegmentConfig).segment_id);
    if (type === 'trigger' && typeof config.segment_id === 'string') wanted.segments.add(config.segment_id);
    if (type === 'trigger' && typeof config.topic_id === 'string') wanted.topics.add(config.topic_id);
  }
  return wanted;
}

async function find(db: Db, organizationId: string, wanted: Wanted): Promise<Found> {
  const ids = (set: Set<string>) => [...set].map((id) => id.toLowerCase());
  const [templateRows, segmentRows, topicRows, propertyRows] = await Promise.all([
    wanted.templates.size === 0
      ? []
      : db.select({ id: templates.id, name: templates.name, publishedAt: templates.publishedAt, from: templates.from }).from(templates).where(and(eq(templates.organizationId, organizationId), inArray(templates.id, ids(wanted.templates)))),
    wanted.segments.size === 0
      ? []
      : db.select({ id: audiences.id, name: audiences.name, rules: audiences.rules }).from(audiences).where(and(eq(audiences.organizationId, organizationId), inArray(audiences.id, ids(wanted.segments)))),
    wanted.topics.size === 0 ? [] : db.select({ id: topics.id }).from(topics).where(and(eq(topics.organizationId, organizationId), inArray(topics.id, ids(wanted.topics)))),
    db.select({ key: contactProperties.key, type: contactProperties.type }).from(contactProperties).where(eq(contactProperties.organizationId, organizationId)),
  ]);
  return {
    templates: new Map(templateRows.map((row) => [row.id, { published: row.publishedAt !== null, from: row.from, name: row.name }])),
    segments: new Map(segmentRows.map((row) => [row.id, { byRules: row.rules !== null, name: row.name }])),
    topics: new Set(topicRows.map((row) => row.id)),
    properties: new Map(propertyRows.map((row) => [row.key, row.type])),
  };
}

const VALUE_TYPE: Record<ContactPropertyType, string> = { string: 'string', number: 'number', boolean: 'boolean', date: 'string' };

function checkStep(step: StoredStep, found: Found): string | null {
  const property = (key: string, type?: ContactPropertyType): string | null => {
    const actual = found.properties.get(key);
    if (actual === undefined) return `no contact property has the key "${key}"; create it first (POST /contact-properties)`;
    if (type && actual !== type) return `the contact property "${key}" is of type ${actual}, not ${type}`;
    return null;
  };
  const at = (field: string, problem: string | null) => (problem === null ? null : `${field}: ${problem}`);
  const segment = (id: string, field: string) => (found.segments.has(id.toLowerCase()) ? null : `${field}: ${id} is not one of your segments`);
  const topic = (id: string, field: string) => (found.topics.has(id.toLowerCase()) ? null : `${field}: ${id} is not one of your topics`);
  const contactFieldsOf = (condition: Condition) =>
    conditionFields(condition)
      .filter((field) => field.startsWith('contact.'))
      .map((field) => field.slice('contact.'.length))
      .filter((key) => !(CONTACT_FIELDS as readonly string[]).includes(key));
  switch (step.type) {
    case 'trigger': {
      const config = step.config as TriggerConfig;
      if ('segment_id' in config) return segment(config.segment_id, 'config.segment_id');
      if ('topic_id' in config) return topic(config.topic_id, 'config.topic_id');
      if ('property' in config) return at('config.property', property(config.property, 'date'));
      return null;
    }
    case 'send_email': {
      const config = step.config as SendEmailConfig;
      const template = found.templates.get(config.template.id.toLowerCase());
      if (!template) return `config.template.id: ${config.template.id} is not one of your templates`;
      if (!template.published) return `config.template.id: the template "${template.name}" has never been published; publish it (POST /templates/{id}/publish) first`;
      if (!config.from && !template.from) return `config.from: give a sender: the template "${template.name}" has none`;
      return config.topic_id ? topic(config.topic_id, 'config.topic_id') : null;
    }
    case 'add_to_segment': {
      const id = (step.config as AddToSegmentConfig).segment_id;
      const target = found.segments.get(id.toLowerCase());
      if (!target) return segment(id, 'config.segment_id');
      return target.byRules ? `config.segment_id: the segment "${target.name}" takes its members from its rules; add contacts to a list segment` : null;
    }
    case 'delay': {
      const key = (step.config as DelayConfig).time_zone_property;
      return key === undefined ? null : at('config.time_zone_property', property(key, 'string'));
    }
    case 'contact_update': {
      for (const [key, value] of Object.entries((step.config as ContactUpdateConfig).properties ?? {})) {
        const problem = at(`config.properties.${key}`, property(key));
        if (problem) return problem;
        const type = found.properties.get(key)!;
        const literal = value !== null && typeof value !== 'object';
        if (literal && typeof value !== VALUE_TYPE[type]) return `config.properties.${key}: the property is of type ${type}`;
        if (literal && type === 'date' && Number.isNaN(Date.parse(value as string))) return `config.properties.${key}: must be an ISO 8601 date`;
      }
      return null;
    }
    case 'condition':
    case 'wait_for_event': {
      const condition = step.type === 'condition' ? (step.config as Condition) : (step.config as WaitForEventConfig).filter_rule;
      if (!condition) return null;
      if (step.type === 'wait_for_event' && conditionFields(condition).some((field) => !field.startsWith('event.'))) return 'config.filter_rule: reads the waited event\'s payload only (event.<field>)';
      const unknown = contactFieldsOf(condition).find((key) => !found.properties.has(key));
      return unknown ? `contact.${unknown}: not a contact field (${CONTACT_FIELDS.join(', ')}) nor one of your contact properties` : null;
    }
    case 'contact_delete':
      return null;
  }
}

/** 400 naming the first step whose references are not the organization's, or not fit for it. */
export async function checkReferences(db: Db, organizationId: string, definition: AutomationDefinition): Promise<void> {
  const found = await find(db, organizationId, wantedOf(definition));
  for (const step of definition.steps) {
    const problem = checkStep(step, found);
    if (problem) throw validationError(`Step "${step.key}" (${step.type}): ${problem}`);
  }
}
