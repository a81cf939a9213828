'use client';

import { useMemo, useState } from 'react';
import { Button } from './button';
import { cx } from './cx';
import { previewDocument, hasRemoteContent } from '../lib/preview-document';
import { useFrameSwap } from './use-frame-swap';

/**
 * The HTML as a mail client would draw it, in an iframe with `sandbox=""`: no scripts, no
 * same-origin access, no forms, no popups. Remote content stays off until asked for.
 *
 * A new document never blanks the pane: it loads in a frame of its own, unseen over the one
 * shown, and takes its place once loaded, the one it replaces staying under it until it has
 * painted (use-frame-swap.ts). Chromium does not paint an
 * opaque-origin frame that is outside the viewport, which is why a full-page screenshot can show
 * this pane empty although a person scrolling to it sees it drawn (e2e/helpers.ts, `shot`).
 */
export function HtmlPreview({ html, title = 'HTML version of the email', className = 'h-[32rem]' }: { html: string; title?: string; className?: string }) {
  const [remoteImages, setRemoteImages] = useState(false);
  const srcDoc = useMemo(() => previewDocument(html, { remoteImages }), [html, remoteImages]);
  const { shown, next, previous, loaded } = useFrameSwap(srcDoc);
  const remote = useMemo(() => hasRemoteContent(html), [html]);

  return (
    <div>
      {remote && (
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 bg-slate-50 px-4 py-2 text-xs text-slate-600" data-testid="remote-content-notice">
          <span>{remoteImages ? 'Remote images are shown.' : 'Remote images are blocked, so viewing the email here is not tracked.'}</span>
          <Button variant="ghost" size="sm" onClick={() => setRemoteImages((value) => !value)}>
            {remoteImages ? 'Block remote images' : 'Load remote images'}
          </Button>
        </div>
      )}
      <div className={cx('relative min-h-48 resize-y overflow-hidden bg-white', className)} data-testid="html-preview-pane" data-pending={next ? true : undefined}>
        {/* In the order of their versions, so the newest is on top and no frame ever moves (a moved frame reloads). */}
        {[previous, shown, next].map(
          (frame) =>
            frame && (
              <iframe
                // A new frame per document (Chromium can keep a sandboxed frame's first document when
                // its srcdoc changes mid-load); the key is kept when the next one becomes the shown one.
                key={frame.version}
                title={title}
                data-testid={frame === shown ? 'html-preview' : frame === next ? 'html-preview-next' : 'html-preview-previous'}
                aria-hidden={frame !== shown || undefined}
                tabIndex={frame !== shown ? -1 : undefined}
                sandbox=""
                srcDoc={frame.srcDoc}
                referrerPolicy="no-referrer"
                onLoad={() => loaded(frame.version)}
                className={cx('absolute inset-0 block size-full border-0', frame !== shown && 'pointer-events-none', frame === next && 'opacity-0')}
              />
            ),
        )}
      </div>
    </div>
  );
}
