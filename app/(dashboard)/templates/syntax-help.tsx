import type { ReactNode } from 'react';

const Code = ({ children }: { children: string }) => <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs break-all text-slate-800">{children}</code>;

function Rule({ example, children }: { example: string; children: ReactNode }) {
  return (
    <li className="flex flex-col gap-1 py-2 first:pt-0 last:pb-0">
      <span className="self-start">
        <Code>{example}</Code>
      </span>
      <span className="text-slate-600">{children}</span>
    </li>
  );
}

/** The Liquid a template may use, in short; docs/templates.md and the API reference have the rest. */
export function SyntaxHelp() {
  return (
    <section aria-labelledby="syntax-help-heading" className="rounded-xl border border-slate-200 bg-white p-5 text-sm shadow-sm" data-testid="syntax-help">
      <h2 id="syntax-help-heading" className="text-base font-semibold text-slate-900">
        Template syntax
      </h2>
      <p className="mt-1 text-slate-500">
        Templates are written in{' '}
        <a href="https://liquidjs.com/tutorials/intro-to-liquid.html" target="_blank" rel="noreferrer" className="font-medium text-indigo-600 hover:underline">
          Liquid
        </a>
        , with a few things left out.
      </p>
      <ul className="mt-3 divide-y divide-slate-100">
        <Rule example="{{ name }}">A variable; {'{{ user.first_name }}'} reads a property of one. A variable not given renders empty.</Rule>
        <Rule example={'{{ name | default: "there" }}'}>A default, used when the variable is missing, null, false or empty.</Rule>
        <Rule example="{{ footer | raw }}">
          In the HTML part every variable is HTML-escaped; <span className="font-mono text-xs">raw</span> prints HTML you built yourself as it is. The
          subject and text are never escaped.
        </Rule>
        <Rule example="{% if vip %} … {% else %} … {% endif %}">Conditions, and Liquid&apos;s filters (upcase, date, plus, …) and tags such as assign and case.</Rule>
      </ul>
      <p className="mt-3 rounded-md bg-slate-50 px-3 py-2 text-slate-600">
        <span className="font-medium text-slate-700">Not allowed:</span> loops (<span className="font-mono text-xs">for</span>,{' '}
        <span className="font-mono text-xs">tablerow</span>, <span className="font-mono text-xs">cycle</span>), other templates or files (
        <span className="font-mono text-xs">include</span>, <span className="font-mono text-xs">render</span>,{' '}
        <span className="font-mono text-xs">layout</span>) and unknown filters. Render a list into a variable and print it with{' '}
        <span className="font-mono text-xs">| raw</span>. A mistake shows under its field, with its line, as you type.
      </p>
    </section>
  );
}
