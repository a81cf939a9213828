'use client';

import * as RadixDialog from '@radix-ui/react-dialog';
import { XIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from './cx';

/**
 * A modal dialog on Radix: focus moves in and stays in, Escape and a click outside close it, the
 * page behind is hidden from assistive technology, and the title and description label it.
 * `onClose` runs however it was closed.
 */
export function Dialog({ open, onClose, title, description, children, testId, wide = false }: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** Room for a table (an import's preview) rather than a form. */
  wide?: boolean;
}) {

  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <RadixDialog.Content
          data-testid={testId}
          // Without a description, say so rather than point at nothing.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={cx(
            'fixed top-1/2 left-1/2 z-50 max-h-[calc(100vh-2rem)] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-6 text-left text-slate-900 shadow-xl ring-1 ring-slate-900/10 focus:outline-none',
            wide ? 'max-w-3xl' : 'max-w-lg',
          )}
        >
          <div className="flex items-start justify-between gap-4">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-slate-900">{title}</RadixDialog.Title>
              {description && (
                <RadixDialog.Description asChild>
                  <div className="mt-1 text-sm text-slate-500">{description}</div>
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close className="-m-1 rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-600" aria-label="Close">
              <XIcon className="size-5" />
            </RadixDialog.Close>
          </div>
          <div className="mt-5">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
