'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PencilIcon } from 'lucide-react';
import { Button } from '../../../components/button';
import { CardSection } from '../../../components/card-section';
import { RelativeTime } from '../../../components/relative-time';
import { countOf } from '../../../lib/format';
import { useTRPC } from '../../../lib/trpc';
import { GatedActions } from '../../create-gate/gated-actions';
import { useCreateGate } from '../../create-gate/use-create-gate';
import { conditionWords, matchWords } from '../rules/rule-words';
import type { Segment, SegmentRules } from '../types';
import { EditRulesDialog } from './edit-rules-dialog';

/**
 * A rule segment's rules in words, how many contacts they match now (counted when the page was
 * read) beside its members as last evaluated, and changing them.
 */
export function RulesSection({ segment, rules }: { segment: Segment; rules: SegmentRules }) {
  const trpc = useTRPC();
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const [editing, setEditing] = useState(false);
  const gate = useCreateGate({ procedure: 'segments.update', liveOnly: 'Segments are shared by Live and Test mode: change their rules in Live.' });

  return (
    <CardSection
      testId="segment-rules"
      title="Rules"
      description={`${matchWords(rules.match)}, unless unsubscribed from everything:`}
      action={
        <GatedActions gate={gate}>
          <Button variant="secondary" onClick={() => setEditing(true)} disabled={gate.disabled || !properties.data} aria-describedby={gate.noteId}>
            <PencilIcon className="size-4" />
            Edit rules
          </Button>
        </GatedActions>
      }
    >
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-900" data-testid="segment-conditions">
        {rules.conditions.map((condition, index) => (
          <li key={index} data-testid="segment-condition">
            {conditionWords(condition, properties.data?.data)}
          </li>
        ))}
      </ul>
      <dl className="mt-5 grid gap-x-6 gap-y-4 border-t border-slate-100 pt-4 sm:grid-cols-2">
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Matching now</dt>
          <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-testid="segment-matching-now" data-count={segment.matchingNow ?? undefined}>
            {countOf(segment.matchingNow ?? 0, 'contact')}
          </dd>
        </div>
        <div className="min-w-0">
          <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">Members</dt>
          <dd className="mt-1 text-sm text-slate-900">
            {countOf(segment.contactCount, 'contact')}
            {segment.rulesEvaluatedAt && (
              <span className="block text-xs text-slate-500" data-testid="segment-evaluated-at">
                as the rules matched <RelativeTime iso={segment.rulesEvaluatedAt} />
              </span>
            )}
          </dd>
        </div>
      </dl>
      <p className="mt-3 text-xs text-slate-500">
        The members follow the rules when they are changed and when a broadcast to this segment is sent; a contact who unsubscribed from it stays unsubscribed.
      </p>
      {editing && properties.data && <EditRulesDialog segment={segment} rules={rules} properties={properties.data.data} onClose={() => setEditing(false)} />}
    </CardSection>
  );
}
