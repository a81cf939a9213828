'use client';

import { useCallback, useSyncExternalStore } from 'react';

const keyOf = (organizationId: string) => `eumail_setup_dismissed:${organizationId}`;
const listeners = new Set<() => void>();

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
};

/**
 * Whether this browser was told to stop showing "You're set up" for the organization. A
 * preference of the screen, kept in the browser: nothing on the server changes with it.
 */
export function useSetupDismissed(organizationId: string): [boolean, () => void] {
  const dismissed = useSyncExternalStore(
    subscribe,
    () => window.localStorage.getItem(keyOf(organizationId)) === '1',
    () => false,
  );
  const dismiss = useCallback(() => {
    window.localStorage.setItem(keyOf(organizationId), '1');
    for (const listener of listeners) listener();
  }, [organizationId]);
  return [dismissed, dismiss];
}
