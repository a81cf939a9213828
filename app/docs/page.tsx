import type { Metadata } from 'next';
import Link from 'next/link';
import { buttonClasses } from '../components/button';
import { Logo } from '../components/logo';
import { ApiReferenceLoader } from './api-reference-loader';

export const metadata: Metadata = { title: 'API reference' };

/** Public: the reference is readable without an account. The document is fetched in the browser. */
export default function DocsPage() {
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4 sm:px-6">
          <Link href="/docs" className="flex items-center gap-3">
            <Logo />
            <span className="hidden text-sm text-slate-400 sm:inline">/ API reference</span>
          </Link>
          {/* A full page load: Scalar's stylesheet styles <body>, and must not follow into the dashboard. */}
          <a href="/api-keys" className={buttonClasses('secondary', 'sm')}>
            Dashboard
          </a>
        </div>
      </header>
      <main>
        <ApiReferenceLoader />
      </main>
    </div>
  );
}
