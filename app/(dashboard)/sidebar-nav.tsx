'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { cx } from '../components/cx';
import { DocsLink } from '../components/docs-link';
import { BookOpenIcon } from 'lucide-react';
import { roleMayCall } from '@/server/vocabulary/dashboard-access';
import { useRole } from '../lib/use-role';
import { NAV_ITEMS } from './nav-items';

const linkClasses = (active: boolean) =>
  cx(
    'group flex items-center gap-3 rounded-md px-2.5 py-2 text-sm font-medium transition-colors',
    active ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  );

/** The resources of the API the person's role may see, then the API reference (in a new tab). */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const pathname = usePathname();
  const role = useRole();
  // A page the role may not read is not offered (the server refuses it anyway).
  const items = NAV_ITEMS.filter((item) => !item.reads || (role !== null && roleMayCall(role, item.reads)));
  return (
    <nav aria-label="Main" className="flex flex-1 flex-col gap-6">
      <ul className="space-y-0.5">
        {items.map(({ href, label, icon: Icon, ready }) => {
          // The overview is the root: every path starts with its "/", so only "/" itself is it.
          const active = pathname === href || (href !== '/' && pathname.startsWith(`${href}/`));
          return (
            <li key={href}>
              <Link href={href} className={linkClasses(active)} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
                <Icon className={cx('size-5 shrink-0', active ? 'text-indigo-600' : 'text-slate-400 group-hover:text-slate-500')} />
                <span className="flex-1">{label}</span>
                {!ready && <span className="text-[10px] font-medium tracking-wide text-slate-400 uppercase">Soon</span>}
              </Link>
            </li>
          );
        })}
      </ul>
      <div>
        <p className="px-2.5 pb-1 text-xs font-semibold tracking-wide text-slate-400 uppercase">Developers</p>
        <DocsLink className={linkClasses(false)}>
          <BookOpenIcon className="size-5 shrink-0 text-slate-400 group-hover:text-slate-500" />
          <span className="flex-1">API docs</span>
        </DocsLink>
      </div>
    </nav>
  );
}
