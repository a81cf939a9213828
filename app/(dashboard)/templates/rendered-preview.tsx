import { HtmlPreview } from '../../components/html-preview';
import { cx } from '../../components/cx';
import type { RenderedTemplate } from './types';
import { MissingVariables } from './missing-variables';
import { RenderedPart } from './rendered-part';

const frame = 'overflow-hidden rounded-lg border border-slate-200';

/** The subject, the HTML in a sandboxed frame and the text, as a send with these variables would make them. */
export function RenderedPreview({ rendered, stale }: { rendered: RenderedTemplate; stale: boolean }) {
  return (
    <div className={cx('space-y-4 transition-opacity', stale && 'opacity-60')} data-testid="rendered-preview" data-stale={stale || undefined}>
      {rendered.missingVariables.length > 0 && <MissingVariables names={rendered.missingVariables} />}
      <RenderedPart label="Subject">
        <p className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm font-medium wrap-anywhere text-slate-900" data-testid="preview-subject">
          {rendered.subject || <span className="font-normal text-slate-400 italic">Empty</span>}
        </p>
      </RenderedPart>
      <RenderedPart label="HTML">
        {rendered.html !== null ? (
          <div className={frame}>
            <HtmlPreview html={rendered.html} title="HTML preview of the template" className="h-96" />
          </div>
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-500" data-testid="preview-no-html">
            This template has no HTML part.
          </p>
        )}
      </RenderedPart>
      <RenderedPart label="Text">
        {rendered.text !== null ? (
          <pre className={cx(frame, 'max-h-80 overflow-auto bg-white px-3 py-2 font-mono text-[13px] leading-5 whitespace-pre-wrap text-slate-800')} data-testid="preview-text">
            {rendered.text}
          </pre>
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 px-3 py-4 text-center text-sm text-slate-500" data-testid="preview-no-text">
            This template has no text part: mail clients that do not show HTML get none.
          </p>
        )}
      </RenderedPart>
    </div>
  );
}
