import type { ReactNode } from 'react';
import { LayoutTemplateIcon } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';

const Code = ({ children }: { children: string }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-700">{children}</code>;

/** No template yet: what templates are for, how a placeholder is written, and the way to make one. */
export function TemplatesEmpty({ action }: { action: ReactNode }) {
  return (
    <EmptyState testId="templates-empty" icon={<LayoutTemplateIcon className="size-6" />} title="No templates yet" action={action}>
      <p>
        A template is a subject with an HTML and/or a plain-text body that you write once and send many times: send with its <Code>template_id</Code> and
        the <Code>variables</Code> of each recipient, and the placeholders are filled in.
      </p>
      <p className="mt-2">
        Write <Code>{'{{ name }}'}</Code> for a variable, or <Code>{'{{ name | default: "there" }}'}</Code> for one with a default. You preview a template
        with sample variables before you send it.
      </p>
    </EmptyState>
  );
}
