'use client';

import { DownloadIcon } from 'lucide-react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyButton } from '../../components/copy-button';

function download(codes: string[]) {
  const text = `EU Mail recovery codes\nEach code signs you in once, in place of an authenticator code.\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'eu-mail-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Recovery codes, shown once: they are stored encrypted and never shown again. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="space-y-4" data-testid="recovery-codes">
      <Alert tone="warning" title="Save your recovery codes now">
        Each code signs you in once if you lose your authenticator. They are shown only this once: keep them somewhere safe, such as a password manager.
      </Alert>
      <ol className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-5" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <CopyButton text={codes.join('\n')} label="Copy codes" />
        <Button variant="secondary" onClick={() => download(codes)}>
          <DownloadIcon className="size-4" />
          Download
        </Button>
        <Button onClick={onDone}>I have saved them</Button>
      </div>
    </div>
  );
}
