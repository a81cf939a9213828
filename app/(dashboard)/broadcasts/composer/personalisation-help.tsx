const Code = ({ children }: { children: string }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs whitespace-nowrap text-slate-800">{children}</code>;

/** The placeholders every contact's copy fills in, in one line under the editor. */
export function PersonalisationHelp() {
  return (
    <p className="text-xs leading-5 text-slate-500" data-testid="personalisation-help">
      Personalise with <Code>{'{{ email }}'}</Code>, <Code>{'{{ name }}'}</Code> (empty when the contact has none:{' '}
      <Code>{'{{ name | default: "there" }}'}</Code>) and <Code>{'{{ unsubscribe_url }}'}</Code>, the contact&apos;s own unsubscribe link: put it in the
      footer, mailbox providers expect to see one.
    </p>
  );
}
