'use client';

import { useId, useState } from 'react';
import { cx } from '../../../components/cx';
import type { Email } from '../types';
import { HtmlPreview } from '../../../components/html-preview';
import { RawSource } from './raw-source';

type Version = 'html' | 'text' | 'raw';

function Tab({ id, panelId, selected, disabled, onSelect, children }: { id: string; panelId: string; selected: boolean; disabled?: boolean; onSelect: () => void; children: string }) {
  return (
    <button
      type="button"
      role="tab"
      id={id}
      aria-selected={selected}
      aria-controls={panelId}
      disabled={disabled}
      onClick={onSelect}
      className={cx(
        'rounded-md px-3 py-1 text-sm font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50',
        selected ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900',
      )}
    >
      {children}
    </button>
  );
}

/** The body: the rendered HTML, the plain-text version, or the raw MIME source. */
export function EmailContent({ email }: { email: Email }) {
  const [version, setVersion] = useState<Version>(email.html !== null ? 'html' : 'text');
  const base = useId();
  const panelId = `${base}-panel`;

  return (
    <section aria-labelledby={`${base}-heading`} className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-3">
        <h2 id={`${base}-heading`} className="text-base font-semibold text-slate-900">
          Content
        </h2>
        <div role="tablist" aria-label="Version" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          <Tab id={`${base}-html`} panelId={panelId} selected={version === 'html'} disabled={email.html === null} onSelect={() => setVersion('html')}>
            HTML
          </Tab>
          <Tab id={`${base}-text`} panelId={panelId} selected={version === 'text'} onSelect={() => setVersion('text')}>
            Text
          </Tab>
          <Tab id={`${base}-raw`} panelId={panelId} selected={version === 'raw'} onSelect={() => setVersion('raw')}>
            Raw
          </Tab>
        </div>
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={`${base}-${version}`} data-testid="email-content" data-version={version}>
        {version === 'raw' ? (
          <RawSource emailId={email.id} />
        ) : version === 'html' && email.html !== null ? (
          <HtmlPreview html={email.html} />
        ) : email.text !== null ? (
          <pre className="max-h-[32rem] overflow-auto px-5 py-4 font-mono text-sm whitespace-pre-wrap text-slate-800" data-testid="text-version">
            {email.text}
          </pre>
        ) : (
          <p className="px-5 py-8 text-center text-sm text-slate-500" data-testid="text-version">
            This email was sent without a plain-text version.
          </p>
        )}
      </div>
    </section>
  );
}
