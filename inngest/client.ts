import { Inngest } from 'inngest';

/** Events carry ids only; the data stays in the EU database. */
export const inngest = new Inngest({ id: 'eumail' });

export const dueEvent = (kind: string) => `${kind}/due`;
