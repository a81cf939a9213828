'use client';

import Link from 'next/link';
import { useState, type ReactNode } from 'react';
import { Logo } from '../components/logo';
import { XIcon, MenuIcon } from 'lucide-react';
import type { SessionUser } from './require-session';
import { ModeSwitch } from './mode-switch';
import { OrganizationBadge } from './organization-badge';
import { DeletionBanner } from './deletion-banner';
import { PaymentBanner } from './payment-banner';
import { OwnerConfirmationBanner } from './owner-confirmation-banner';
import { SidebarNav } from './sidebar-nav';
import { UserMenu } from './user-menu';

function SidebarContents({ user, onNavigate }: { user: SessionUser; onNavigate?: () => void }) {
  return (
    // Scrolls when the window is shorter than the navigation, so the user menu (Sign out) stays reachable.
    <div className="flex h-full flex-col gap-6 overflow-y-auto px-4 py-5">
      <Link href="/" className="px-1" onClick={onNavigate}>
        <Logo />
      </Link>
      <OrganizationBadge />
      <ModeSwitch />
      <SidebarNav onNavigate={onNavigate} />
      <UserMenu user={user} onNavigate={onNavigate} />
    </div>
  );
}

/** A fixed sidebar on wide screens; a top bar with a slide-over menu on narrow ones. */
export function DashboardShell({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <div className="min-h-screen">
      <aside className="fixed inset-y-0 left-0 hidden w-64 border-r border-slate-200 bg-white lg:block">
        <SidebarContents user={user} />
      </aside>

      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        <Logo />
        <button type="button" className="rounded-md p-2 text-slate-600 hover:bg-slate-100" onClick={() => setMenuOpen(true)} aria-label="Open menu">
          <MenuIcon className="size-5" />
        </button>
      </header>
      {menuOpen && (
        <div className="fixed inset-0 z-40 lg:hidden">
          <div className="absolute inset-0 bg-slate-900/40" onClick={() => setMenuOpen(false)} />
          <aside className="absolute inset-y-0 left-0 w-72 max-w-[85%] bg-white shadow-xl">
            <button type="button" className="absolute top-4 right-3 rounded-md p-1.5 text-slate-500 hover:bg-slate-100" onClick={() => setMenuOpen(false)} aria-label="Close menu">
              <XIcon className="size-5" />
            </button>
            <SidebarContents user={user} onNavigate={() => setMenuOpen(false)} />
          </aside>
        </div>
      )}

      <main className="lg:pl-64">
        <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-10">
          <DeletionBanner />
          <PaymentBanner />
          <OwnerConfirmationBanner />
          {children}
        </div>
      </main>
    </div>
  );
}
