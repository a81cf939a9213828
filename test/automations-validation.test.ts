import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { publishedTemplate } from './support/automations';

// Every refusal of a definition is 400 VALIDATION_ERROR whose message names the step (or the
// connection) it is about: docs/automations.md, "Validation".

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
beforeEach(() => app.reset());

type Step = { key: string; type: string; config: Record<string, unknown> };
type Connection = { from: string; to: string; type?: string };

const trigger: Step = { key: 'start', type: 'trigger', config: { event_name: 'user.created' } };
const delay = (key: string, config: Record<string, unknown> = { duration: '1 day' }): Step => ({ key, type: 'delay', config });
const send = (key: string, templateId: string, extra: Record<string, unknown> = {}): Step => ({ key, type: 'send_email', config: { template: { id: templateId }, ...extra } });
const condition = (key: string, config: Record<string, unknown> = { type: 'rule', field: 'event.plan', operator: 'eq', value: 'pro' }): Step => ({ key, type: 'condition', config });
const wait = (key: string, config: Record<string, unknown> = { event_name: 'payment.completed', timeout: '3 days' }): Step => ({ key, type: 'wait_for_event', config });
const link = (from: string, to: string, type?: string): Connection => (type ? { from, to, type } : { from, to });

interface World {
  key: string;
  templateId: string;
  draftTemplateId: string;
  senderless: string;
  segmentId: string;
  ruleSegmentId: string;
  topicId: string;
  foreign: { templateId: string; segmentId: string; topicId: string };
}

async function world(): Promise<World> {
  const { apiKey: key } = await app.createOrg();
  const other = await app.createOrg({ name: 'Other', ownerEmail: 'owner@other.test' });
  const post = async (k: string, path: string, body: unknown) => {
    const response = await app.request('POST', `/api${path}`, { key: k, body });
    expect(response.status, response.text).toBe(201);
    return response.body.id as string;
  };
  await post(key, '/contact-properties', { key: 'birthday', type: 'date' });
  await post(key, '/contact-properties', { key: 'plan', type: 'string' });
  await post(key, '/contact-properties', { key: 'seats', type: 'number' });
  return {
    key,
    templateId: await publishedTemplate(app, key),
    draftTemplateId: await publishedTemplate(app, key, { draft: true }),
    senderless: await publishedTemplate(app, key, { from: null }),
    segmentId: await post(key, '/segments', { name: 'Customers' }),
    ruleSegmentId: await post(key, '/segments', { name: 'Openers', rules: { conditions: [{ type: 'engagement', activity: 'opened_or_clicked', within_days: 30 }] } }),
    topicId: await post(key, '/topics', { name: 'Product news', default_subscription: 'opt_in' }),
    foreign: {
      templateId: await publishedTemplate(app, other.apiKey),
      segmentId: await post(other.apiKey, '/segments', { name: 'Theirs' }),
      topicId: await post(other.apiKey, '/topics', { name: 'Theirs', default_subscription: 'opt_in' }),
    },
  };
}

const save = (w: World, steps: Step[], connections: Connection[]) => app.request('POST', '/api/automations', { key: w.key, body: { name: 'Checked', steps, connections } });

/** [what is wrong, steps, connections, the words the refusal must hold (the step's key among them)] */
type Case = [string, Step[], Connection[], string[]];

function graphCases(w: World): Case[] {
  const t = w.templateId;
  return [
    ['no trigger', [delay('pause')], [], ['exactly one trigger']],
    ['two triggers', [trigger, { ...trigger, key: 'again' }], [], ['"start"', '"again"', 'exactly one']],
    ['a key given twice', [trigger, delay('pause'), delay('pause')], [link('start', 'pause')], ['"pause"', 'unique']],
    ['a connection to no step', [trigger, delay('pause')], [link('start', 'pause'), link('pause', 'nowhere')], ['"nowhere"', 'connections[1]']],
    ['a connection from no step', [trigger, delay('pause')], [link('start', 'pause'), link('ghost', 'pause')], ['"ghost"']],
    ['an unreachable step', [trigger, delay('pause'), send('lost', t)], [link('start', 'pause')], ['"lost"', 'not reachable']],
    ['an unreachable loop', [trigger, delay('pause'), delay('a'), delay('b')], [link('start', 'pause'), link('a', 'b'), link('b', 'a')], ['"a"', 'not reachable']],
    [
      'a loop through a send and a condition only',
      [trigger, send('mail', t), condition('check')],
      [link('start', 'mail'), link('mail', 'check'), link('check', 'mail', 'condition_met'), link('check', 'mail', 'condition_not_met')],
      ['"mail"', 'loop without a delay', 'delay step'],
    ],
    ['a step connected to itself', [trigger, delay('pause')], [link('start', 'pause'), link('pause', 'pause')], ['"pause"', 'itself']],
    ['a condition without condition_not_met', [trigger, condition('check'), send('mail', t)], [link('start', 'check'), link('check', 'mail', 'condition_met')], ['"check"', 'condition_not_met']],
    ['a condition with a default connection', [trigger, condition('check'), send('mail', t)], [link('start', 'check'), link('check', 'mail')], ['"check"', 'default']],
    ['a wait without timeout', [trigger, wait('payment'), send('receipt', t)], [link('start', 'payment'), link('payment', 'receipt', 'event_received')], ['"payment"', 'timeout']],
    ['a delay that branches', [trigger, delay('pause'), send('mail', t)], [link('start', 'pause'), link('pause', 'mail', 'condition_met')], ['"pause"', 'condition_met']],
    ['two ways on from one step', [trigger, send('a', t), send('b', t)], [link('start', 'a'), link('start', 'b')], ['"start"', 'two default']],
    ['a step after contact_delete', [trigger, { key: 'forget', type: 'contact_delete', config: {} }, send('mail', t)], [link('start', 'forget'), link('forget', 'mail')], ['"forget"', 'leads nowhere']],
    ['a connection into the trigger', [trigger, delay('pause')], [link('start', 'pause'), link('pause', 'start')], ['"start"', 'trigger']],
    [
      'an opened-email condition before any email',
      [trigger, condition('opened', { type: 'rule', field: 'email.opened', operator: 'eq', value: true }), send('a', t), send('b', t)],
      [link('start', 'opened'), link('opened', 'a', 'condition_met'), link('opened', 'b', 'condition_not_met')],
      ['"opened"', 'before any send_email'],
    ],
    [
      'an opened-email condition one path reaches without an email',
      [trigger, condition('plan'), send('mail', t), delay('pause'), condition('opened', { type: 'rule', field: 'email.clicked', operator: 'eq', value: false }), delay('end')],
      [link('start', 'plan'), link('plan', 'mail', 'condition_met'), link('plan', 'pause', 'condition_not_met'), link('mail', 'opened'), link('pause', 'opened'), link('opened', 'end', 'condition_met'), link('opened', 'end', 'condition_not_met')],
      ['"opened"', 'before any send_email'],
    ],
  ];
}

function configCases(w: World): Case[] {
  const t = w.templateId;
  const one = (step: Step): [Step[], Connection[]] => [[trigger, step], [link('start', step.key)]];
  const cases: Array<[string, Step, string[]]> = [
    ['a delay that is no duration', delay('pause', { duration: 'soon' }), ['"pause"', 'config.duration', 'not a duration']],
    ['a delay past 30 days', delay('pause', { duration: '31 days' }), ['"pause"', 'at most 30 days']],
    ['a delay shorter than a minute', delay('pause', { duration: '30 seconds' }), ['"pause"', 'at least a minute']],
    ['a delay with both ways', delay('pause', { duration: '1 day', time_of_day: '09:00' }), ['"pause"', 'either duration']],
    ['a delay to no time of day', delay('pause', { time_of_day: '25:00' }), ['"pause"', 'config.time_of_day']],
    ['a delay in no time zone', delay('pause', { time_of_day: '09:00', time_zone: 'Mars/Olympus' }), ['"pause"', 'IANA']],
    ['a send with an unknown field', send('mail', t, { html: '<p>Hi</p>' }), ['"mail"', 'html']],
    ['a send with a malformed from', send('mail', t, { from: 'not an address' }), ['"mail"', 'config.from']],
    ['a send with a malformed variable reference', send('mail', t, { template: { id: t, variables: { plan: { var: 'account.plan' } } } }), ['"mail"', 'config.template.variables.plan']],
    ['a wait without a timeout', wait('payment', { event_name: 'payment.completed' }), ['"payment"', 'config.timeout']],
    ['a wait for an event of ours', wait('payment', { event_name: 'email.opened', timeout: '1 day' }), ['"payment"', 'kept for this service']],
    ['a condition comparing a string with gt', condition('check', { type: 'rule', field: 'event.amount', operator: 'gt', value: 'ten' }), ['"check"', 'takes a number']],
    ['a condition on no namespace', condition('check', { type: 'rule', field: 'plan', operator: 'exists' }), ['"check"', 'config.field']],
    ['a condition nested three deep', condition('check', { type: 'and', rules: [{ type: 'or', rules: [{ type: 'and', rules: [] }] }] }), ['"check"', 'two deep']],
    ['a contact update that changes nothing', { key: 'update', type: 'contact_update', config: {} }, ['"update"', 'must change something']],
    ['a contact delete with a config', { key: 'forget', type: 'contact_delete', config: { soft: true } }, ['"forget"', 'soft']],
    ['an add to segment without a segment', { key: 'join', type: 'add_to_segment', config: {} }, ['"join"', 'config.segment_id']],
  ];
  const triggers: Array<[string, Record<string, unknown>, string[]]> = [
    ['a custom event in our namespace', { event_name: 'contact.signed_up' }, ['"start"', 'not an event a trigger can start on']],
    ['a custom event in Resend\'s namespace', { event_name: 'resend:user.created' }, ['"start"', 'resend:']],
    ['a custom event with spaces', { event_name: 'user created' }, ['"start"', 'config.event_name']],
    ['a segment trigger without a segment', { event_name: 'contact.added_to_segment' }, ['"start"', 'config.segment_id']],
    ['an email trigger with an unknown field', { event_name: 'email.opened', campaign: 'x' }, ['"start"', 'campaign']],
    ['a re-entry of no kind', { event_name: 'user.created', re_entry: { type: 'sometimes' } }, ['"start"', 'config.re_entry']],
    ['a re-entry after two years', { event_name: 'user.created', re_entry: { type: 'after', duration: '730 days' } }, ['"start"', '365 days']],
    ['a date trigger a decade off', { event_name: 'contact.date_reached', property: 'birthday', offset_days: 3650 }, ['"start"', 'config.offset_days']],
  ];
  return [
    ...cases.map(([what, step, words]): Case => [what, ...one(step), words]),
    ...triggers.map(([what, config, words]): Case => [what, [{ ...trigger, config }, delay('pause')], [link('start', 'pause')], words]),
  ];
}

function referenceCases(w: World): Case[] {
  const one = (step: Step, triggerConfig?: Record<string, unknown>): [Step[], Connection[]] => [[triggerConfig ? { ...trigger, config: triggerConfig } : trigger, step], [link('start', step.key)]];
  const cases: Array<[string, Step, string[], Record<string, unknown>?]> = [
    ["another organization's template", send('mail', w.foreign.templateId), ['"mail"', 'not one of your templates']],
    ['a template never published', send('mail', w.draftTemplateId), ['"mail"', 'never been published']],
    ['no sender anywhere', send('mail', w.senderless), ['"mail"', 'config.from', 'has none']],
    ["another organization's topic on a send", send('mail', w.templateId, { topic_id: w.foreign.topicId }), ['"mail"', 'not one of your topics']],
    ["another organization's segment", { key: 'join', type: 'add_to_segment', config: { segment_id: w.foreign.segmentId } }, ['"join"', 'not one of your segments']],
    ['a segment made by rules', { key: 'join', type: 'add_to_segment', config: { segment_id: w.ruleSegmentId } }, ['"join"', 'from its rules']],
    ['a time zone property that is no property', delay('pause', { time_of_day: '09:00', time_zone_property: 'tz' }), ['"pause"', 'no contact property has the key "tz"']],
    ['a time zone property of another type', delay('pause', { time_of_day: '09:00', time_zone_property: 'seats' }), ['"pause"', 'of type number']],
    ['an update of no property', { key: 'update', type: 'contact_update', config: { properties: { tier: 'gold' } } }, ['"update"', '"tier"']],
    ['an update of a number with a string', { key: 'update', type: 'contact_update', config: { properties: { seats: 'many' } } }, ['"update"', 'config.properties.seats', 'type number']],
    ['an update of a date with no date', { key: 'update', type: 'contact_update', config: { properties: { birthday: 'someday' } } }, ['"update"', 'ISO 8601']],
    ['a condition on no contact field', condition('check', { type: 'rule', field: 'contact.tier', operator: 'eq', value: 'gold' }), ['"check"', 'contact.tier']],
    ['a wait filtered on the contact', wait('payment', { event_name: 'paid', timeout: '1 day', filter_rule: { type: 'rule', field: 'contact.plan', operator: 'eq', value: 'pro' } }), ['"payment"', 'filter_rule']],
    ["a trigger on another organization's segment", delay('pause'), ['"start"', 'not one of your segments'], { event_name: 'contact.added_to_segment', segment_id: w.foreign.segmentId }],
    ["a trigger on another organization's topic", delay('pause'), ['"start"', 'not one of your topics'], { event_name: 'contact.topic_subscribed', topic_id: w.foreign.topicId }],
    ['a date trigger on a string property', delay('pause'), ['"start"', 'of type string, not date'], { event_name: 'contact.date_reached', property: 'plan' }],
    ['a date trigger on no property', delay('pause'), ['"start"', 'no contact property'], { event_name: 'contact.date_reached', property: 'anniversary' }],
  ];
  return cases.map(([what, step, words, triggerConfig]): Case => {
    const [steps, connections] = one(step, triggerConfig);
    // A condition and a wait need both of their ways on.
    const ways = step.type === 'condition' ? ['condition_met', 'condition_not_met'] : step.type === 'wait_for_event' ? ['event_received', 'timeout'] : [];
    if (ways.length > 0) {
      steps.push(delay('end'));
      connections.push(...ways.map((way) => link(step.key, 'end', way)));
    }
    return [what, steps, connections, words];
  });
}

describe('automations: every refusal of a definition names the step', () => {
  for (const [group, casesOf] of [
    ['the graph', graphCases],
    ['the configs', configCases],
    ["the organization's references", referenceCases],
  ] as const) {
    it(`refuses what is wrong with ${group}, 400 VALIDATION_ERROR naming it, storing nothing`, async () => {
      const w = await world();
      for (const [what, steps, connections, words] of casesOf(w)) {
        const response = await save(w, steps, connections);
        expect(response.status, `${what}: ${response.text}`).toBe(400);
        expect(response.body.code, what).toBe('VALIDATION_ERROR');
        for (const word of words) expect(response.body.error, what).toContain(word);
      }
      expect((await app.request('GET', '/api/automations', { key: w.key })).body.data).toEqual([]);
    });
  }

  it('refuses the same on a change, and keeps the version it had', async () => {
    const w = await world();
    const created = await save(w, [trigger, delay('pause')], [link('start', 'pause')]);
    expect(created.status, created.text).toBe(201);
    const response = await app.request('PATCH', `/api/automations/${created.body.id}`, { key: w.key, body: { steps: [trigger, send('mail', w.draftTemplateId)], connections: [link('start', 'mail')] } });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('"mail"');
    expect((await app.request('GET', `/api/automations/${created.body.id}`, { key: w.key })).body).toMatchObject({ version: 1, steps: [trigger, delay('pause')] });
  });

  it('checks what it names again when it is enabled: a template deleted since it was saved', async () => {
    const w = await world();
    const created = await save(w, [trigger, send('mail', w.templateId)], [link('start', 'mail')]);
    expect(created.status, created.text).toBe(201);
    expect((await app.request('DELETE', `/api/templates/${w.templateId}`, { key: w.key })).status).toBe(200);
    const enabled = await app.request('PATCH', `/api/automations/${created.body.id}`, { key: w.key, body: { status: 'enabled' } });
    expect(enabled.status).toBe(400);
    expect(enabled.body).toEqual({ error: expect.stringContaining('Step "mail" (send_email): config.template.id'), code: 'VALIDATION_ERROR' });
    // A rename of the disabled automation is still allowed: nothing is armed.
    expect((await app.request('PATCH', `/api/automations/${created.body.id}`, { key: w.key, body: { name: 'Renamed' } })).status).toBe(200);
  });

  it('refuses malformed outlines at the edge: a step of no type, a key with spaces, a connection of no type, unknown fields', async () => {
    const w = await world();
    for (const [steps, connections, field] of [
      [[trigger, { key: 'x', type: 'send_sms', config: {} }], [link('start', 'x')], 'steps.1.type'],
      [[trigger, { key: 'a b', type: 'delay', config: { duration: '1 day' } }], [link('start', 'a b')], 'steps.1.key'],
      [[trigger, delay('pause')], [link('start', 'pause', 'sometimes')], 'connections.0.type'],
      [[trigger, { ...delay('pause'), note: 'hi' }], [link('start', 'pause')], 'steps.1'],
    ] as Array<[Step[], Connection[], string]>) {
      const response = await save(w, steps, connections);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toContain(field);
    }
  });
});

describe('automations: what a valid definition may hold', () => {
  it('takes every step type, every trigger of ours, a loop through a delay and the opened-email condition after a send', async () => {
    const w = await world();
    const t = w.templateId;
    const steps: Step[] = [
      { ...trigger, config: { event_name: 'user.created', re_entry: { type: 'after', duration: '30 days' } } },
      send('welcome', t, { subject: 'Welcome aboard', from: 'Acme <hi@acme.example.com>', reply_to: 'help@acme.example.com', topic_id: w.topicId, template: { id: t, variables: { plan: { var: 'event.plan' }, seats: 3, vip: false } } }),
      delay('tomorrow_morning', { time_of_day: '09:00', time_zone_property: 'plan', time_zone: 'Europe/Paris' }),
      condition('opened', { type: 'and', rules: [{ type: 'rule', field: 'email.opened', operator: 'eq', value: true }, { type: 'or', rules: [{ type: 'rule', field: 'contact.seats', operator: 'gte', value: 5 }, { type: 'rule', field: 'contact.email', operator: 'ends_with', value: '@example.com' }] }] }),
      wait('payment', { event_name: 'payment.completed', timeout: '3 days', filter_rule: { type: 'rule', field: 'event.amount', operator: 'gt', value: 10 } }),
      { key: 'mark', type: 'contact_update', config: { first_name: { var: 'event.first_name' }, last_name: null, properties: { seats: 5, birthday: '1990-04-01', plan: { var: 'event.plan' } } } },
      { key: 'join', type: 'add_to_segment', config: { segment_id: w.segmentId } },
      delay('week', { duration: '1 week' }),
      { key: 'forget', type: 'contact_delete', config: {} },
    ];
    const connections: Connection[] = [
      link('start', 'welcome'),
      link('welcome', 'tomorrow_morning'),
      link('tomorrow_morning', 'opened'),
      link('opened', 'payment', 'condition_met'),
      link('opened', 'forget', 'condition_not_met'),
      link('payment', 'mark', 'event_received'),
      link('payment', 'week', 'timeout'),
      link('mark', 'join'),
      // Back round through a delay: a loop that pauses.
      link('week', 'welcome'),
    ];
    const response = await save(w, steps, connections);
    expect(response.status, response.text).toBe(201);
    expect(response.body.steps).toEqual(steps);

    const ours: Array<Record<string, unknown>> = [
      { event_name: 'contact.created', re_entry: { type: 'once' } },
      { event_name: 'contact.added_to_segment', segment_id: w.ruleSegmentId },
      { event_name: 'contact.topic_subscribed', topic_id: w.topicId },
      { event_name: 'contact.date_reached', property: 'birthday', offset_days: -3, yearly: true },
      { event_name: 'email.delivered' },
      { event_name: 'email.opened', tag: { name: 'category' } },
      { event_name: 'email.clicked', tag: { name: 'category', value: 'welcome' } },
      { event_name: 'email.bounced' },
      { event_name: 'email.complained' },
    ];
    for (const config of ours) {
      const made = await save(w, [{ ...trigger, config }, delay('pause', { duration: '30m' })], [link('start', 'pause')]);
      expect(made.status, `${JSON.stringify(config)}: ${made.text}`).toBe(201);
      expect(made.body.triggerEventName).toBe(config.event_name);
    }
  });
});
