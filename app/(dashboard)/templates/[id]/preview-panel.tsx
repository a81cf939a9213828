'use client';

import { Alert } from '../../../components/alert';
import { ErrorAlert } from '../../../components/error-alert';
import { TextareaField } from '../../../components/field';
import { Spinner } from '../../../components/spinner';
import { fieldErrors } from '../../../lib/field-errors';
import type { Template } from '../types';
import { VariableBadges } from '../variable-badges';
import { PreviewSkeleton } from './preview-skeleton';
import { RenderedPreview } from './rendered-preview';
import { useTemplatePreview } from './use-template-preview';

const PREVIEW_FIELDS = ['variables'] as const;

/**
 * The saved template rendered with sample variables, by the server, as a send would render it.
 * Edits not saved yet are not in it, and it says so.
 */
export function PreviewPanel({ template, variables, onVariablesChange, unsaved }: { template: Template; variables: string; onVariablesChange: (text: string) => void; unsaved: boolean }) {
  const { query, jsonError, typing } = useTemplatePreview(template.id, variables);
  const { byField, other } = fieldErrors(query.error, PREVIEW_FIELDS);
  const rows = Math.min(Math.max(variables.split('\n').length, 3), 12);

  return (
    <section aria-labelledby="preview-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="template-preview">
      <div className="flex items-center justify-between gap-3">
        <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
          Preview
        </h2>
        {(query.isFetching || typing) && !jsonError && (
          <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="preview-rendering">
            <Spinner className="size-3.5" />
            Rendering…
          </span>
        )}
      </div>

      {unsaved && (
        <Alert tone="info" title="Unsaved changes">
          <span data-testid="preview-unsaved">The preview shows the saved version. Save to preview your changes.</span>
        </Alert>
      )}

      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Variables of the saved template</p>
        <VariableBadges variables={template.variables} empty="None: this template reads no variables." />
      </div>

      <TextareaField
        label="Variables (JSON)"
        name="variables"
        mono
        rows={rows}
        spellCheck={false}
        value={variables}
        onChange={(event) => onVariablesChange(event.target.value)}
        description="Sample values for this preview only; they are not saved. A send gives them as variables."
        error={jsonError ?? byField.variables}
      />

      {other ? <ErrorAlert error={other} fallbackTitle="Could not render the preview" /> : null}

      {query.data && jsonError && <p className="text-xs text-slate-500">The last preview stays below, dimmed, until the JSON is fixed.</p>}
      {query.data ? <RenderedPreview rendered={query.data} stale={Boolean(jsonError) || query.isPlaceholderData} /> : query.isPending && !jsonError ? <PreviewSkeleton /> : null}
    </section>
  );
}
