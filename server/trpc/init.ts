import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { toEnvelope } from './envelope';

export type AccessMeta = {
  /** HTTP status of success; 200 unless the spec says 201. */
  successStatus?: 200 | 201;
  /** 'sending': a sending_access key may call it (the four send paths). Default: full_access only. */
  access?: 'sending';
  /** Changes state shared by live and test mode, which a test key may not touch. */
  liveWrite?: boolean;
};

export type Meta = OpenApiMeta<AccessMeta>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const envelope = toEnvelope(error);
      // The envelope is what REST answers with; the stack never leaves the process.
      return { ...shape, message: envelope.error, data: { code: shape.data.code, httpStatus: envelope.status, path: shape.data.path, envelope } };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
