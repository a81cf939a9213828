import { CopyButton } from '../../components/copy-button';

/** A snippet to copy whole: dark, scrolling sideways rather than wrapping, the copy button in its corner. */
export function CodeBlock({ code, describe, testId }: { code: string; describe: string; testId?: string }) {
  return (
    <div className="relative">
      <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 pr-24 font-mono text-xs leading-relaxed text-slate-100" data-testid={testId}>
        <code>{code}</code>
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton text={code} size="sm" describe={describe} />
      </div>
    </div>
  );
}
