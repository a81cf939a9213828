'use client';

import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button';
import { cx } from '../../../components/cx';
import type { DnsRecord } from '../types';

/** Beyond this many characters a value is clamped to two lines until expanded. */
const LONG = 80;

/** A record's value: clamped when long, the full value on the copy button, and the 255-byte strings on demand. */
export function RecordValue({ record }: { record: DnsRecord }) {
  const [expanded, setExpanded] = useState(false);
  const long = record.value.length > LONG;
  const parts = record.parts && record.parts.length > 1 ? record.parts : null;

  return (
    <div className="space-y-1.5">
      <div className="flex items-start gap-2">
        <code
          data-testid="record-value"
          className={cx('min-w-0 flex-1 pt-1.5 font-mono text-xs wrap-anywhere text-slate-900', long && !expanded && 'line-clamp-2')}
          title={long && !expanded ? 'Use Copy to get the full value' : undefined}
        >
          {record.value}
        </code>
        <CopyButton text={record.value} size="sm" iconOnly describe={`${record.record} value`} />
      </div>
      {long && (
        <button
          type="button"
          className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
          aria-expanded={expanded}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? 'Show less' : 'Show full value'}
        </button>
      )}
      {expanded && parts && (
        <div className="space-y-1.5 rounded-md bg-slate-50 p-2" data-testid="record-parts">
          <p className="text-xs text-slate-500">If your provider needs the value as separate strings of at most 255 characters, enter these in order:</p>
          {parts.map((part, index) => (
            <div key={index} className="flex items-start gap-2">
              <span className="pt-1.5 text-xs text-slate-400">{index + 1}.</span>
              <code className="min-w-0 flex-1 pt-1.5 font-mono text-xs break-all text-slate-700">{part}</code>
              <CopyButton text={part} size="sm" iconOnly describe={`${record.record} string ${index + 1}`} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
