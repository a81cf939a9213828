import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type AudiencesOutputs = RouterOutputs['audiences'];

export type Audience = AudiencesOutputs['get'];
export type Contact = AudiencesOutputs['listContacts']['data'][number];
export type ListContactsInput = RouterInputs['audiences']['listContacts'];
