'use client';

import Link from 'next/link';
import { TemplateSelect } from '../../templates/template-select';

/**
 * A saved template's subject and bodies, instead of writing them here. Every template is offered:
 * a draft may be published before the broadcast is sent (sending refuses one never published).
 */
export function TemplatePicker({ value, onChange, error }: { value: string; onChange: (id: string) => void; error?: string }) {
  return (
    <TemplateSelect
      label="Template"
      name="template_id"
      value={value}
      onChange={onChange}
      error={error}
      loadErrorId="template-load-error"
      description="Its subject and bodies are copied into the broadcast when sending starts: later edits to the template do not change a broadcast on its way."
      empty={
        <p data-testid="no-templates" className="rounded-lg border border-dashed border-slate-300 px-4 py-3 text-sm text-slate-600">
          You have no template yet.{' '}
          <Link href="/templates/new" className="font-medium text-indigo-600 hover:underline">
            Write one
          </Link>{' '}
          or write the message here.
        </p>
      }
    />
  );
}
