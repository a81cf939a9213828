import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from './index';

// The one import for typed clients of `/api/trpc` (the dashboard, first-party apps): types only,
// so importing it brings no server code into a client's bundle or process.

export type { AppRouter };

/** `RouterInputs['emails']['send']`: what a procedure takes. */
export type RouterInputs = inferRouterInputs<AppRouter>;

/** `RouterOutputs['domains']['list']`: what a procedure answers. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
