import { Trash2Icon } from 'lucide-react';
import { Button } from '../../../components/button';
import { countOf } from '../../../lib/format';

/** Shown while contacts are ticked: how many, and what can be done with them. */
export function SelectionBar({ count, onClear, onDelete }: { count: number; onClear: () => void; onDelete: () => void }) {
  return (
    <div className="sticky top-16 z-20 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-2.5 text-sm shadow-sm lg:top-4" data-testid="selection-bar" role="region" aria-label="Selected contacts">
      <p className="font-medium text-indigo-900" aria-live="polite" data-testid="selection-count">
        {countOf(count, 'contact')} selected
      </p>
      <div className="flex gap-2">
        <Button variant="ghost" size="sm" onClick={onClear}>
          Clear selection
        </Button>
        <Button variant="danger" size="sm" onClick={onDelete}>
          <Trash2Icon className="size-4" />
          Delete selected
        </Button>
      </div>
    </div>
  );
}
