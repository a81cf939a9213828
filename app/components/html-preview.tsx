'use client';

import { useMemo, useState } from 'react';
import { Button } from './button';
import { cx } from './cx';
import { previewDocument, hasRemoteContent } from '../lib/preview-document';

/**
 * The HTML as a mail client would draw it, in an iframe with `sandbox=""`: no scripts, no
 * same-origin access, no forms, no popups. Remote content stays off until asked for.
 */
export function HtmlPreview({ html, title = 'HTML version of the email', className = 'h-[32rem]' }: { html: string; title?: string; className?: string }) {
  const [remoteImages, setRemoteImages] = useState(false);
  const srcDoc = useMemo(() => previewDocument(html, { remoteImages }), [html, remoteImages]);
  // Each document gets a new iframe: Chromium can keep showing the first document of a sandboxed
  // frame whose srcdoc changes while that first one is still loading (a preview that re-renders fast).
  const [shown, setShown] = useState({ srcDoc, version: 0 });
  if (shown.srcDoc !== srcDoc) setShown({ srcDoc, version: shown.version + 1 });
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
      <div className={cx('min-h-48 resize-y overflow-hidden bg-white', className)}>
        <iframe
          // A new frame per document; a meta policy could not be loosened in place anyway.
          key={shown.version}
          title={title}
          data-testid="html-preview"
          sandbox=""
          srcDoc={srcDoc}
          referrerPolicy="no-referrer"
          className="block size-full border-0"
        />
      </div>
    </div>
  );
}
