import { Badge } from './badge';
import { Button } from './button';

/** An editor's header actions: the *Unsaved changes* badge while the form differs from what is saved, and Save for the form `form`. */
export function SaveActions({ form, unsaved, saving }: { form: string; unsaved: boolean; saving: boolean }) {
  return (
    <div className="flex items-center gap-3">
      {unsaved && (
        <span data-testid="unsaved-changes">
          <Badge tone="amber">Unsaved changes</Badge>
        </span>
      )}
      <Button type="submit" form={form} loading={saving} disabled={!unsaved}>
        Save
      </Button>
    </div>
  );
}
