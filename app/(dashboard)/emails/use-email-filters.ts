'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo } from 'react';
import { filtersQuery, parseFilters, type EmailFilters } from './filters';

/** The filters in the URL, and a way to change them (a new history entry, so Back undoes it). */
export function useEmailFilters() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const query = searchParams.toString();
  const filters = useMemo(() => parseFilters(new URLSearchParams(query)), [query]);
  const setFilters = useCallback((next: EmailFilters) => router.push(`${pathname}${filtersQuery(next)}`, { scroll: false }), [router, pathname]);
  return { filters, setFilters };
}
