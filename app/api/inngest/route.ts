import { serve } from 'inngest/next';
import { inngest } from '@/inngest/client';
import { createFunctions } from '@/inngest/functions';
import { getRuntime } from '@/server/runtime-registry';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT } = serve({ client: inngest, functions: createFunctions(() => getRuntime().deps) });
