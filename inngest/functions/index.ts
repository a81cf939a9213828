import type { Deps } from '@/server/deps';
import { broadcastFunctions } from './broadcasts';
import { domainCheckFunctions } from './domain-checks';
import { emailDispatchFunctions } from './email-dispatch';
import { planChangeFunctions } from './plan-changes';
import { retentionFunctions } from './retention';
import { systemMailFunctions } from './system-mail';
import { webhookDeliveryFunctions } from './webhook-delivery';

/** Every durable function, each step calling a service function. */
export const createFunctions = (getDeps: () => Deps) => [...systemMailFunctions(getDeps), ...domainCheckFunctions(getDeps), ...emailDispatchFunctions(getDeps), ...webhookDeliveryFunctions(getDeps), ...retentionFunctions(getDeps), ...planChangeFunctions(getDeps), ...broadcastFunctions(getDeps)];
