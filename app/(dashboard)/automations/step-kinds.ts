import type { StepType } from './types';

/** What each step type is called and does in the editor, and the config a new one starts with. */
export const STEP_KINDS: Record<StepType, { label: string; description: string; initial: () => Record<string, unknown> }> = {
  trigger: { label: 'Trigger', description: 'What starts a run for a contact', initial: () => ({ event_name: 'contact.created' }) },
  delay: { label: 'Delay', description: 'Wait a while, or until a time of day', initial: () => ({ duration: '1 day' }) },
  send_email: { label: 'Send email', description: 'Send a published template to the contact', initial: () => ({ template: { id: '' } }) },
  wait_for_event: { label: 'Wait for event', description: 'Wait until one of your events arrives, or time out', initial: () => ({ event_name: '', timeout: '3 days' }) },
  condition: { label: 'Condition', description: 'Branch on the contact, the event or the last email', initial: () => ({ type: 'rule', field: 'contact.first_name', operator: 'exists' }) },
  contact_update: { label: 'Update contact', description: 'Change its name, subscription or properties', initial: () => ({}) },
  contact_delete: { label: 'Delete contact', description: 'Delete the contact; the run ends', initial: () => ({}) },
  add_to_segment: { label: 'Add to segment', description: 'Add the contact to a list segment', initial: () => ({ segment_id: '' }) },
};

/** The types a person adds (the trigger is there from the start, once). */
export const ADDABLE_TYPES: StepType[] = ['delay', 'send_email', 'wait_for_event', 'condition', 'contact_update', 'add_to_segment', 'contact_delete'];

/** This service's own trigger events, with what each one also needs (docs/automations.md, "Triggers"). */
export const SYSTEM_TRIGGERS: Array<{ event: string; label: string }> = [
  { event: 'contact.created', label: 'A contact is created' },
  { event: 'contact.added_to_segment', label: 'A contact joins a segment' },
  { event: 'contact.topic_subscribed', label: 'A contact subscribes to a topic' },
  { event: 'contact.date_reached', label: "A contact's date property is reached" },
  { event: 'email.delivered', label: 'An email is delivered' },
  { event: 'email.opened', label: 'An email is opened' },
  { event: 'email.clicked', label: 'A link in an email is clicked' },
  { event: 'email.bounced', label: 'An email bounces' },
  { event: 'email.complained', label: 'An email is marked as spam' },
];

/** How a trigger reads in the list: "A contact is created", or the customer's own event name. */
export const triggerLabel = (eventName: string) => SYSTEM_TRIGGERS.find((trigger) => trigger.event === eventName)?.label ?? `Event "${eventName}"`;
