import { SendIcon } from 'lucide-react';

/** On a new broadcast: where checking and sending will be, once it is saved as a draft. */
export function SendAfterSave() {
  return (
    <section aria-labelledby="send-heading" className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-center" data-testid="send-after-save">
      <div className="mx-auto flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        <SendIcon className="size-5" />
      </div>
      <h2 id="send-heading" className="mt-3 text-base font-semibold text-slate-900">
        Check and send
      </h2>
      <p className="mx-auto mt-1 max-w-sm text-sm text-slate-500">
        Save the draft to run the pre-flight checks, send yourself a test copy, and send or schedule it.
      </p>
    </section>
  );
}
