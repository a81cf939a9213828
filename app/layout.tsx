import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

/**
 * Every page is rendered per request: the server's Content-Security-Policy carries a fresh nonce
 * (server/http/security-headers.ts) that Next puts on its scripts, and a page prerendered at build
 * time would carry none (docs/security.md).
 */
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'EU Mail', template: '%s · EU Mail' },
  description: 'Email sending, processed and stored in the EU',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
