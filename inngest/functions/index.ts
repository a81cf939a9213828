import type { Deps } from '@/server/deps';
import { systemMailFunctions } from './system-mail';

/** Every durable function, each step calling a service function. */
export const createFunctions = (getDeps: () => Deps) => [...systemMailFunctions(getDeps)];
