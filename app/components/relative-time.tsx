'use client';

import { useEffect, useState } from 'react';
import { formatDateTime, formatRelative } from '../lib/format';

/**
 * "in 2 minutes", kept current, with the exact UTC time as its tooltip. A `future` time that has
 * passed (a scheduled job that is due) reads "due now" rather than "a minute ago".
 */
export function RelativeTime({ iso, future = false, className }: { iso: string; future?: boolean; className?: string }) {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    // A new time (a refetch) is measured against the clock now, not at the last tick.
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [iso]);

  const due = future && new Date(iso).getTime() <= now;
  return (
    <time dateTime={iso} title={formatDateTime(iso)} className={className}>
      {due ? 'due now' : formatRelative(iso, now)}
    </time>
  );
}
