import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

type AudiencesOutputs = RouterOutputs['audiences'];

export type Audience = AudiencesOutputs['get'];
export type Contact = AudiencesOutputs['listContacts']['data'][number];
export type ListContactsInput = RouterInputs['audiences']['listContacts'];

/** An audience under Resend's name, with its rules when it is defined by them (`segments.*`). */
export type Segment = RouterOutputs['segments']['get'];
export type SegmentRules = NonNullable<Segment['rules']>;
export type SegmentCondition = SegmentRules['conditions'][number];
export type SegmentRulesInput = NonNullable<RouterInputs['segments']['create']['rules']>;
