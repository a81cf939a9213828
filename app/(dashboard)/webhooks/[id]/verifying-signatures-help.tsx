import { CopyButton } from '../../../components/copy-button';

const SNIPPET = `import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.EUMAIL_WEBHOOK_SECRET); // whsec_…

// Express: keep the raw body, a re-serialised JSON would not verify.
app.post('/webhooks/eumail', express.raw({ type: 'application/json' }), async (req, res) => {
  let event;
  try {
    event = webhook.verify(req.body, req.headers); // throws on a bad signature or an old timestamp
  } catch {
    return res.sendStatus(400);
  }
  // The same event can arrive more than once: handle each webhook-id once.
  if (await alreadyHandled(req.headers['webhook-id'])) return res.sendStatus(204);
  await handle(event); // { type, createdAt, data }, data.mode is "live" or "test"
  res.sendStatus(204);
});`;

/** How a receiver checks that a delivery came from us, in a few lines it can copy. */
export function VerifyingSignaturesHelp() {
  return (
    <section aria-labelledby="verifying-heading" className="rounded-xl border border-sky-200 bg-sky-50/60 p-5" data-testid="verifying-signatures">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="verifying-heading" className="text-base font-semibold text-slate-900">
            Verifying signatures
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-slate-600">
            Deliveries follow the Standard Webhooks specification: check the{' '}
            <code className="font-mono text-xs">webhook-signature</code> header with the signing secret before trusting the body, for example with the{' '}
            <code className="font-mono text-xs">standardwebhooks</code> npm package. Answer 2xx quickly; anything else is retried. A retry or a replay
            carries the same <code className="font-mono text-xs">webhook-id</code> header, so de-duplicate on it.
          </p>
        </div>
        <CopyButton text={SNIPPET} size="sm" iconOnly describe="the verification example" />
      </div>
      <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">{SNIPPET}</pre>
    </section>
  );
}
