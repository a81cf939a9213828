'use client';

import dynamic from 'next/dynamic';

/** Scalar renders in the browser only (it reads the window and fetches the document there). */
export const ApiReferenceLoader = dynamic(() => import('./api-reference'), {
  ssr: false,
  loading: () => <p className="p-8 text-sm text-slate-500">Loading the API reference…</p>,
});
