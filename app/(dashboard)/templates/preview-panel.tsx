'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { TextareaField } from '../../components/field';
import { Spinner } from '../../components/spinner';
import { fieldErrors } from '../../lib/field-errors';
import { PreviewSkeleton } from './preview-skeleton';
import { RenderedPreview } from './rendered-preview';
import { TEMPLATE_FIELDS } from './template-values';
import type { ContentPreview } from './use-content-preview';
import { VariableBadges } from './variable-badges';
import { variablesSkeleton } from './variables-json';

const PREVIEW_FIELDS = ['variables'] as const;

const FIELD_LABELS: Record<(typeof TEMPLATE_FIELDS)[number], string> = { name: 'Name', subject: 'Subject', html: 'HTML', text: 'Text' };

/**
 * The editor's content as it stands, saved or not, rendered by the server as a send would render
 * it, with sample variables typed as JSON. It follows every edit once typing stops; an error in
 * the content is shown under its field (the editor passes it to the form) and the last rendering
 * stays here, dimmed, until it is fixed.
 */
export function PreviewPanel({
  preview,
  variables,
  onVariablesChange,
  savedVariables,
  actions,
}: {
  preview: ContentPreview;
  variables: string;
  onVariablesChange: (text: string) => void;
  /** The variables of the saved template, shown until the first rendering says which the content reads. */
  savedVariables: string[];
  actions?: ReactNode;
}) {
  const { query, rendered, jsonError, missing, typing } = preview;
  const variableErrors = fieldErrors(query.error, PREVIEW_FIELDS);
  const contentErrors = fieldErrors(variableErrors.other, TEMPLATE_FIELDS);
  const fieldInError = TEMPLATE_FIELDS.find((field) => contentErrors.byField[field]);
  const rows = Math.min(Math.max(variables.split('\n').length, 3), 12);

  // Sample JSON nobody has typed in (still the empty skeleton of the variables last found) follows
  // the variables the content reads as it is written; once typed in, it is the person's.
  const found = rendered?.variables ?? savedVariables;
  const shownSkeleton = useRef(variablesSkeleton(savedVariables));
  useEffect(() => {
    const next = variablesSkeleton(found);
    if (variables === shownSkeleton.current && next !== variables) onVariablesChange(next);
    shownSkeleton.current = next;
  }, [found, variables, onVariablesChange]);
  const stale = Boolean(jsonError) || preview.stale;

  return (
    <section aria-labelledby="preview-heading" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="template-preview">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
            Preview
          </h2>
          {(query.isFetching || typing) && !jsonError && !missing && (
            <span className="inline-flex items-center gap-1.5 text-xs text-slate-500" data-testid="preview-rendering">
              <Spinner className="size-3.5" />
              Rendering…
            </span>
          )}
        </div>
        {actions}
      </div>
      <p className="-mt-2 text-sm text-slate-500">What you are writing, saved or not, rendered as a send would render it.</p>

      <div>
        <p className="mb-1.5 text-sm font-medium text-slate-700">Variables</p>
        <VariableBadges variables={found} empty="None: this template reads no variables." />
      </div>

      <TextareaField
        label="Variables (JSON)"
        name="variables"
        mono
        rows={rows}
        spellCheck={false}
        value={variables}
        onChange={(event) => onVariablesChange(event.target.value)}
        description="Sample values for this preview and a test send; they are not saved. A send gives them as variables."
        error={jsonError ?? variableErrors.byField.variables}
      />

      {contentErrors.other ? <ErrorAlert error={contentErrors.other} fallbackTitle="Could not render the preview" /> : null}
      {fieldInError && (
        <p className="text-xs text-slate-500" data-testid="preview-content-error">
          Not rendered: see the error under {FIELD_LABELS[fieldInError]}.{rendered ? ' The last rendering stays below, dimmed, until it is fixed.' : ''}
        </p>
      )}
      {rendered && jsonError && <p className="text-xs text-slate-500">The last rendering stays below, dimmed, until the JSON is fixed.</p>}

      {missing ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-8 text-center text-sm text-slate-500" data-testid="preview-missing">
          {missing}
        </p>
      ) : rendered ? (
        <RenderedPreview rendered={rendered} stale={stale} />
      ) : query.isPending && !jsonError && !fieldInError ? (
        <PreviewSkeleton />
      ) : null}
    </section>
  );
}
