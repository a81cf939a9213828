import { contacts } from '@/db/schema';
import { newId } from '@/server/ids';
import { admitApiKey } from '@/server/services/api-keys/admission';
import { createAutomation, receiveEvent } from '@/server/services/automations';
import { createTemplate } from '@/server/services/templates/crud';
import type { FaultWorld } from './fault-world';

/**
 * The automation the fault tests break: an email, a change of the contact (last name `Greeted`),
 * a second email; `count` contacts (`reader<i>@example.net`), each with a run started and due.
 * Answers the automation's id.
 */
export async function twoEmailRuns(world: FaultWorld, count: number): Promise<string> {
  const { deps } = world.runtime;
  const principal = (await admitApiKey(deps, world.apiKey))!.principal;
  const template = async (name: string) => (await createTemplate(deps, principal, { name, subject: name, html: `<p>${name}</p>`, from: world.from })).id;
  const [hello, again] = [await template('Hello'), await template('Again')];
  const automation = await createAutomation(deps, principal, {
    name: 'Two emails',
    status: 'enabled',
    steps: [
      { key: 'start', type: 'trigger', config: { event_name: 'user.created' } },
      { key: 'hello', type: 'send_email', config: { template: { id: hello } } },
      { key: 'mark', type: 'contact_update', config: { last_name: 'Greeted' } },
      { key: 'again', type: 'send_email', config: { template: { id: again } } },
    ],
    connections: [
      { from: 'start', to: 'hello' },
      { from: 'hello', to: 'mark' },
      { from: 'mark', to: 'again' },
    ],
  });
  const now = deps.clock.now();
  const people = Array.from({ length: count }, (_, i) => ({ id: newId(), organizationId: world.organizationId, email: `reader${i}@example.net`, properties: {}, createdAt: now, updatedAt: now }));
  await deps.db.insert(contacts).values(people);
  for (const person of people) await receiveEvent(deps, principal, { event: 'user.created', contact: { id: person.id }, payload: {} });
  return automation.id;
}
