import { CopyButton } from '../../../components/copy-button';

/** The body as stored, indented for reading; left as it is if it is not JSON. */
function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/** The JSON body every attempt of the delivery sent. */
export function PayloadView({ payload }: { payload: string }) {
  return (
    <section aria-label="Request body" className="min-w-0">
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Request body</h3>
        <CopyButton text={payload} size="sm" iconOnly describe="request body" />
      </div>
      <pre className="max-h-96 overflow-auto rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-slate-100 wrap-anywhere" data-testid="delivery-payload">
        {pretty(payload)}
      </pre>
    </section>
  );
}
