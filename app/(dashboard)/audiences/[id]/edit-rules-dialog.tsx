'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/form-dialog';
import { refetchThenClose } from '../../../components/mutation-dialog-props';
import { useTRPC } from '../../../lib/trpc';
import type { ContactProperty } from '../../contacts/types';
import { draftOf, rulesInputOf, segmentErrors, type RulesDraft } from '../rules/rule-draft';
import { RulesEditor } from '../rules/rules-editor';
import type { Segment, SegmentRules } from '../types';
import { useInvalidateAudiences } from '../use-invalidate-audiences';

/** A rule segment's rules, changed and evaluated at once: its members become whom they match now. */
export function EditRulesDialog({ segment, rules, properties, onClose }: { segment: Segment; rules: SegmentRules; properties: ContactProperty[]; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAudiences();
  const [draft, setDraft] = useState<RulesDraft>(() => draftOf(rules, properties));
  const [localErrors, setLocalErrors] = useState<Record<number, string>>({});
  const update = useMutation(trpc.segments.update.mutationOptions({ onSuccess: refetchThenClose(invalidate, onClose) }));
  const errors = segmentErrors(update.error);

  const submit = () => {
    const built = rulesInputOf(draft, properties);
    if ('errors' in built) return setLocalErrors(built.errors);
    setLocalErrors({});
    update.mutate({ id: segment.id, rules: built.rules });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="edit-rules-dialog"
      title="Edit rules"
      description={
        <>
          <strong className="font-semibold break-words text-slate-700">{segment.name}</strong> takes the contacts these rules match as soon as they are saved; those
          it no longer matches leave it.
        </>
      }
      onSubmit={submit}
      submitLabel="Save rules"
      pending={update.isPending}
      error={errors.rules ? update.error : errors.other}
      errorTitle="Could not save the rules"
      wide
    >
      <RulesEditor
        draft={draft}
        onChange={(next) => {
          setDraft(next);
          setLocalErrors({});
        }}
        properties={properties}
        errors={{ ...errors.byCondition, ...localErrors }}
      />
    </FormDialog>
  );
}
