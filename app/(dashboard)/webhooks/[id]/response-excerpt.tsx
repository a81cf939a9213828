/** The start of what an endpoint answered, as text: never rendered as HTML. */
export function ResponseExcerpt({ text }: { text: string }) {
  return (
    <pre className="mt-1.5 max-h-40 overflow-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs whitespace-pre-wrap text-slate-100 wrap-anywhere" data-testid="response-excerpt">
      {text}
    </pre>
  );
}
