'use client';

import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { RouterInputs } from '@/server/routers/types';
import { Button } from '../../components/button';
import { ErrorAlert } from '../../components/error-alert';
import { CheckboxField, SelectField, TextareaField, TextField } from '../../components/field';
import { useTRPC } from '../../lib/trpc';
import { ConfirmationTemplateField } from './confirmation-template-field';
import type { SignUpForm } from './types';

export type FormValues = Omit<RouterInputs['forms']['create'], 'segment_id'>;

const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * A form's settings: what it asks, where sign-ups go, what they agree to and which sites may post
 * it. The same editor makes a form and changes one; the server checks everything again.
 */
export function FormEditor({
  form,
  submitLabel,
  pending,
  error,
  errorTitle,
  onSubmit,
}: {
  form?: SignUpForm;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  errorTitle: string;
  onSubmit: (values: FormValues) => void;
}) {
  const trpc = useTRPC();
  // Segments as Resend names audiences: a segment defined by rules takes no contacts, so it is not offered.
  const audiences = useQuery(trpc.segments.list.queryOptions({}));
  const topics = useQuery(trpc.topics.list.queryOptions({}));
  const properties = useQuery(trpc.contactProperties.list.queryOptions({}));
  const domains = useQuery(trpc.domains.list.queryOptions({}));

  const [name, setName] = useState(form?.name ?? '');
  const [audienceId, setAudienceId] = useState(form?.audienceId ?? '');
  const [topicIds, setTopicIds] = useState<string[]>(form?.topicIds ?? []);
  const [firstName, setFirstName] = useState(form?.fields.firstName ?? true);
  const [lastName, setLastName] = useState(form?.fields.lastName ?? false);
  const [propertyKeys, setPropertyKeys] = useState<string[]>(form?.fields.properties ?? []);
  const [consentText, setConsentText] = useState(form?.consentText ?? '');
  const [origins, setOrigins] = useState((form?.allowedOrigins ?? []).join('\n'));
  const [successUrl, setSuccessUrl] = useState(form?.successUrl ?? '');
  const [errorUrl, setErrorUrl] = useState(form?.errorUrl ?? '');
  const [doubleOptIn, setDoubleOptIn] = useState(form?.doubleOptIn ?? false);
  const [domainId, setDomainId] = useState(form?.domainId ?? '');
  const [templateId, setTemplateId] = useState(form?.confirmationTemplateId ?? '');

  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((item) => item !== value));
  const verifiedDomains = (domains.data?.data ?? []).filter((domain) => domain.status === 'verified' && !('sandbox' in domain && domain.sandbox));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({
      name,
      audience_id: audienceId,
      topic_ids: topicIds,
      fields: { first_name: firstName, last_name: lastName, properties: propertyKeys },
      consent_text: consentText,
      double_opt_in: doubleOptIn,
      domain_id: domainId || null,
      confirmation_template_id: templateId || null,
      success_url: successUrl.trim() || null,
      error_url: errorUrl.trim() || null,
      allowed_origins: linesOf(origins),
    });
  };

  return (
    <form onSubmit={submit} className="space-y-5 rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="form-editor">
      <TextField label="Form name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} description="For you: the people who fill the form in never see it." />
      <SelectField label="Audience" value={audienceId} onChange={(event) => setAudienceId(event.target.value)} required description="Sign-ups join this audience, subscribed.">
        <option value="">Choose an audience…</option>
        {(audiences.data?.data ?? [])
          .filter((audience) => audience.rules === null)
          .map((audience) => (
          <option key={audience.id} value={audience.id}>
            {audience.name}
          </option>
        ))}
      </SelectField>
      {(topics.data?.data.length ?? 0) > 0 && (
        <fieldset className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium text-slate-700">Topics a sign-up joins</legend>
          {topics.data!.data.map((topic) => (
            <CheckboxField key={topic.id} label={topic.name} checked={topicIds.includes(topic.id)} onChange={(event) => setTopicIds(toggle(topicIds, topic.id, event.target.checked))} />
          ))}
        </fieldset>
      )}
      <fieldset className="space-y-2">
        <legend className="mb-1.5 text-sm font-medium text-slate-700">Fields</legend>
        <CheckboxField label="Email" checked disabled description="Always asked." />
        <CheckboxField label="First name" checked={firstName} onChange={(event) => setFirstName(event.target.checked)} />
        <CheckboxField label="Last name" checked={lastName} onChange={(event) => setLastName(event.target.checked)} />
        {(properties.data?.data ?? []).map((property) => (
          <CheckboxField
            key={property.id}
            label={property.key}
            description={`Contact property (${property.type})`}
            checked={propertyKeys.includes(property.key)}
            onChange={(event) => setPropertyKeys(toggle(propertyKeys, property.key, event.target.checked))}
          />
        ))}
      </fieldset>
      <TextareaField
        label="Consent text"
        value={consentText}
        onChange={(event) => setConsentText(event.target.value)}
        required
        rows={3}
        maxLength={5000}
        description="Shown above the button: what people agree to. Changing it makes a new version; every sign-up keeps the version it was shown."
      />
      <TextareaField
        label="Allowed sites"
        value={origins}
        onChange={(event) => setOrigins(event.target.value)}
        required
        rows={2}
        placeholder="https://www.example.com"
        description="One origin a line (scheme, host and port): pages elsewhere cannot post the form."
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="After signing up" type="url" value={successUrl} onChange={(event) => setSuccessUrl(event.target.value)} placeholder="https://www.example.com/thanks" description="Optional: else a thank-you page of ours." />
        <TextField label="When it fails" type="url" value={errorUrl} onChange={(event) => setErrorUrl(event.target.value)} placeholder="https://www.example.com/oops" description="Optional: gets ?error=CODE." />
      </div>
      <div className="space-y-3">
        <CheckboxField
          label="Double opt-in"
          checked={doubleOptIn}
          onChange={(event) => setDoubleOptIn(event.target.checked)}
          description="People confirm from an email before they are subscribed. Needs a verified domain to send it from."
        />
        {doubleOptIn && (
          <>
            <SelectField label="Send the confirmation from" value={domainId} onChange={(event) => setDomainId(event.target.value)} required>
              <option value="">Choose a verified domain…</option>
              {verifiedDomains.map((domain) => (
                <option key={domain.id} value={domain.id}>
                  {domain.name}
                </option>
              ))}
            </SelectField>
            <ConfirmationTemplateField value={templateId} onChange={setTemplateId} />
          </>
        )}
      </div>
      {error ? <ErrorAlert error={error} fallbackTitle={errorTitle} /> : null}
      <div className="flex justify-end">
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
