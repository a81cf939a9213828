'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { FormDialog } from '../../components/form-dialog';
import { NameField } from '../../components/name-field';
import { useTRPC } from '../../lib/trpc';
import { newRulesDraft, rulesInputOf, segmentErrors, type RulesDraft } from './rules/rule-draft';
import { RulesEditor } from './rules/rules-editor';
import { SegmentKindChoice, type SegmentKind } from './rules/segment-kind-choice';
import { useInvalidateAudiences } from './use-invalidate-audiences';

/**
 * A name, whether its contacts are added (a list) or chosen by rules, and then the new audience's
 * page: where a list's contacts are added, or where a rule segment shows whom its rules matched.
 * Rendered only while open.
 */
export function CreateAudienceDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const router = useRouter();
  const invalidate = useInvalidateAudiences();
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SegmentKind>('list');
  const [draft, setDraft] = useState<RulesDraft>(newRulesDraft);
  const [localErrors, setLocalErrors] = useState<Record<number, string>>({});
  const create = useMutation(
    trpc.segments.create.mutationOptions({
      onSuccess: (segment) => {
        void invalidate();
        router.push(`/audiences/${segment.id}`);
      },
    }),
  );
  const errors = segmentErrors(create.error);
  const rulesWanted = kind === 'rules';

  const submit = () => {
    if (!rulesWanted) return create.mutate({ name: name.trim() });
    const built = rulesInputOf(draft, properties.data?.data ?? []);
    if ('errors' in built) return setLocalErrors(built.errors);
    setLocalErrors({});
    create.mutate({ name: name.trim(), rules: built.rules });
  };

  return (
    <FormDialog
      onClose={onClose}
      testId="create-audience-dialog"
      title="Create audience"
      description="Contacts to send broadcasts to: a list you fill, or a segment its rules fill."
      onSubmit={submit}
      submitLabel="Create audience"
      submitDisabled={!name.trim() || (rulesWanted && !properties.data)}
      pending={create.isPending}
      loading={create.isPending || create.isSuccess}
      error={errors.rules ? create.error : errors.other}
      errorTitle="Could not create the audience"
      wide={rulesWanted}
    >
      <NameField
        value={name}
        onChange={setName}
        maxLength={200}
        placeholder={rulesWanted ? 'Engaged readers' : 'Newsletter'}
        description={rulesWanted ? 'For example the readers who opened a broadcast lately. A contact may be in several audiences.' : 'For example the list a signup form feeds. The same address may be in several audiences.'}
        error={errors.name}
      />
      <SegmentKindChoice value={kind} onChange={setKind} />
      {rulesWanted && (
        <RulesEditor
          draft={draft}
          onChange={(next) => {
            setDraft(next);
            setLocalErrors({});
          }}
          properties={properties.data?.data ?? []}
          errors={{ ...errors.byCondition, ...localErrors }}
        />
      )}
    </FormDialog>
  );
}
