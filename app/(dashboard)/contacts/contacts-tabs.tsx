'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '../../components/cx';

const TABS = [
  { href: '/contacts', label: 'Contacts' },
  { href: '/contacts/properties', label: 'Properties' },
  { href: '/contacts/topics', label: 'Topics' },
];

/** The pages of the contact model: the contacts, the properties they carry, the topics they choose. Links, not tabs: each is a page of its own. */
export function ContactsTabs() {
  const pathname = usePathname();
  return (
    <nav aria-label="Contacts pages" className="mb-6 flex w-fit gap-1 rounded-lg bg-slate-100 p-1" data-testid="contacts-tabs">
      {TABS.map((tab) => {
        const current = pathname === tab.href;
        return (
          <Link
            key={tab.href}
            href={tab.href}
            aria-current={current ? 'page' : undefined}
            className={cx(
              'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
              current ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-600 hover:bg-white/60 hover:text-slate-900',
            )}
          >
            {tab.label}
          </Link>
        );
      })}
    </nav>
  );
}
