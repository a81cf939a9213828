import type { RouterInputs, RouterOutputs } from '@/server/routers/types';

export type ContactProfile = RouterOutputs['contacts']['get'];
export type ContactSegment = RouterOutputs['contacts']['listSegments']['data'][number];
export type ListContactProfilesInput = RouterInputs['contacts']['list'];
export type ContactProperty = RouterOutputs['contactProperties']['get'];
export type PropertyType = ContactProperty['type'];
export type PropertyValue = NonNullable<ContactProperty['fallbackValue']>;
export type Topic = RouterOutputs['topics']['get'];
export type DefaultSubscription = Topic['defaultSubscription'];
export type ContactTopic = RouterOutputs['contactTopics']['list']['data'][number];
