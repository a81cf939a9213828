'use client';

import { useState } from 'react';
import { cx } from '../../components/cx';
import { CopyButton } from '../../components/copy-button';
import { sendSnippets } from './snippets';
import type { Checklist } from './types';

const LANGUAGES = [
  { id: 'curl', label: 'cURL' },
  { id: 'node', label: 'Node.js' },
] as const;
type Language = (typeof LANGUAGES)[number]['id'];

/** The first email as a copy-paste command: the real base URL and the key's prefix, to complete with the full key. */
export function SendSnippets({ checklist }: { checklist: Checklist }) {
  const [language, setLanguage] = useState<Language>('curl');
  const snippets = sendSnippets({
    apiBaseUrl: checklist.apiBaseUrl,
    key: checklist.key,
    mode: checklist.mode,
    from: checklist.sender.from,
    to: checklist.sender.to,
    emailId: checklist.email?.mode === checklist.mode ? checklist.email.id : null,
  });
  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <div role="tablist" aria-label="Language" className="inline-flex rounded-lg border border-slate-200 bg-slate-50 p-0.5 text-xs font-medium">
          {LANGUAGES.map((option) => (
            <button
              key={option.id}
              type="button"
              role="tab"
              id={`snippet-tab-${option.id}`}
              aria-selected={language === option.id}
              aria-controls={`snippet-panel-${option.id}`}
              onClick={() => setLanguage(option.id)}
              className={cx('rounded-md px-3 py-1', language === option.id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-700')}
            >
              {option.label}
            </button>
          ))}
        </div>
        <CopyButton text={snippets[language]} size="sm" describe={`${LANGUAGES.find((option) => option.id === language)!.label} snippet`} />
      </div>
      <div role="tabpanel" id={`snippet-panel-${language}`} aria-labelledby={`snippet-tab-${language}`}>
        <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100" data-testid={`snippet-${language}`}>
          <code>{snippets[language]}</code>
        </pre>
      </div>
      <p className="text-sm text-slate-600">
        Replace <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800" data-testid="snippet-key-placeholder">{snippets.keyPlaceholder}</code>{' '}
        {checklist.key ? (
          <>
            with the full key of <strong className="font-medium text-slate-800">{checklist.key.name}</strong>: it was shown once, when the key was created. Lost it?
            Create another key.
          </>
        ) : (
          'with a key: create one first (step 4).'
        )}
        {language === 'node' && ' Save the Node.js code as send.mjs (Node 18 or later).'}
      </p>
      <p className="text-sm text-slate-600">Then read its events (a test email plays sent and delivered within seconds):</p>
      <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100" data-testid="snippet-events">
        <code>{snippets.events}</code>
      </pre>
    </div>
  );
}
