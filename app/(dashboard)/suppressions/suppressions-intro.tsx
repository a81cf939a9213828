/** What the list is and how addresses get there, under the page title. */
export function SuppressionsIntro() {
  return (
    <>
      Addresses your organization does not send to, in live and test mode alike. A hard bounce or a spam complaint about one of your emails adds the
      address by itself, and you can add others, such as unsubscribes kept elsewhere. A listed recipient is skipped when you send, and the email records
      an <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[12px] text-slate-700">email.suppressed</code> event for it; a send to listed
      addresses only is refused.
    </>
  );
}
