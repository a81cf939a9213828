'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/** The same-origin place a click on a link would open in this tab, or null when the click is not such a navigation. */
function navigationOf(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download') || (anchor.target !== '' && anchor.target !== '_self')) return null;
  const url = new URL(anchor.href, window.location.href);
  // Another site: the browser's own question (beforeunload) asks. The same page: nothing is left.
  if (url.origin !== window.location.origin) return null;
  if (url.pathname === window.location.pathname && url.search === window.location.search) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * While `when` holds (a form with changes not saved), leaving asks first: a click on a link of
 * the dashboard opens "Leave without saving?", and closing the tab, reloading or typing another
 * address gets the browser's own question (beforeunload). Navigations the page makes itself
 * (after a save, a delete) are not asked about. The browser's Back button inside the dashboard
 * is not caught: Next's router takes it before a page can.
 */
export function UnsavedChangesGuard({ when, what = 'your changes' }: { when: boolean; what?: string }) {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const guarding = when && !leaving;

  useEffect(() => {
    if (!guarding) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    // In the capture phase on the document: before Next's Link handler, which React runs from the root.
    const onClick = (event: MouseEvent) => {
      const to = navigationOf(event);
      if (!to) return;
      event.preventDefault();
      event.stopPropagation();
      setPending(to);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [guarding]);

  const leave = () => {
    if (!pending) return;
    setLeaving(true);
    router.push(pending);
  };

  return (
    <ConfirmDialog
      open={pending !== null}
      onClose={() => setPending(null)}
      title="Leave without saving?"
      testId="unsaved-changes-dialog"
      description={`You have not saved ${what}: if you leave now, they are lost.`}
      confirmLabel="Leave without saving"
      cancelLabel="Stay on this page"
      onConfirm={leave}
      pending={false}
      loading={leaving}
      error={null}
      errorTitle=""
    />
  );
}
