import { EyeIcon } from 'lucide-react';

/** Where the preview will be: it renders a saved template, so it comes once this one is created. */
export function PreviewAfterSave() {
  return (
    <section aria-labelledby="preview-heading" className="rounded-xl border border-dashed border-slate-300 bg-white p-5 text-center" data-testid="preview-after-save">
      <div className="mx-auto flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600">
        <EyeIcon className="size-5" />
      </div>
      <h2 id="preview-heading" className="mt-3 text-base font-semibold text-slate-900">
        Preview
      </h2>
      <p className="mx-auto mt-1 max-w-sm text-sm text-slate-500">
        Create the template to preview it: you then fill in its variables as JSON and see the subject, HTML and text as a recipient would.
      </p>
    </section>
  );
}
