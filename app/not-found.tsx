import Link from 'next/link';
import { buttonClasses } from './components/button';
import { Logo } from './components/logo';

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
      <Logo className="mb-10" />
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-2 text-sm text-slate-500">The page you asked for does not exist or has moved.</p>
      <div className="mt-6 flex gap-2">
        <Link href="/" className={buttonClasses('primary')}>
          Go to the dashboard
        </Link>
        <a href="/docs" className={buttonClasses('secondary')}>
          API docs
        </a>
      </div>
    </main>
  );
}
