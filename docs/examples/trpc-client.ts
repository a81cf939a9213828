// A first-party Node program on EU Mail's typed tRPC client: it sends one email, then lists the
// sending domains, and prints each answer as a line of JSON. Run it with tsx:
//
//   EUMAIL_URL=http://localhost:3000 EUMAIL_API_KEY=eu_live_… \
//   EUMAIL_FROM='Acme <hello@acme.example.com>' EUMAIL_TO=ada@example.net npx tsx docs/examples/trpc-client.ts
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter, RouterOutputs } from '../../server/routers/types';

type DomainSummary = RouterOutputs['domains']['list']['data'][number];

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Set ${name}`);
  return value;
}

const eumail = createTRPCClient<AppRouter>({
  links: [
    httpBatchLink({
      url: `${process.env.EUMAIL_URL ?? 'http://localhost:3000'}/api/trpc`,
      headers: { Authorization: `Bearer ${required('EUMAIL_API_KEY')}` },
    }),
  ],
});

/** Narrows a failure to the errors the service answers with, so `data` is typed. */
function isEuMailError(cause: unknown): cause is TRPCClientError<AppRouter> {
  return cause instanceof TRPCClientError;
}

async function main(): Promise<void> {
  const sent = await eumail.emails.send.mutate({
    from: required('EUMAIL_FROM'),
    to: required('EUMAIL_TO'),
    subject: 'Hello from the typed client',
    text: 'Sent with @trpc/client.',
  });
  console.log(JSON.stringify({ step: 'send', id: sent.id }));

  const domains: DomainSummary[] = (await eumail.domains.list.query({})).data;
  console.log(JSON.stringify({ step: 'domains', domains: domains.map(({ id, name, status }) => ({ id, name, status })) }));
}

main().catch((error: unknown) => {
  if (!isEuMailError(error)) throw error;
  // data.code is tRPC's name for the refusal; data.envelope is the {code, error} REST answers with.
  console.log(JSON.stringify({ step: error.data?.path, error: { code: error.data?.code, httpStatus: error.data?.httpStatus, envelope: error.data?.envelope } }));
  process.exitCode = 1;
});
