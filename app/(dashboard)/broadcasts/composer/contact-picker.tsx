import { SelectField } from '../../../components/field';

export interface SampleContact {
  id: string;
  email: string;
  name: string | null;
}

/** Which contact the preview is rendered for; "" is the sample values (an audience with no subscribed contact). */
export function ContactPicker({ contacts, value, onChange }: { contacts: SampleContact[]; value: string; onChange: (id: string) => void }) {
  return (
    <SelectField label="Preview as" name="preview_contact" value={value} onChange={(event) => onChange(event.target.value)} className="min-w-0 flex-1">
      {contacts.map((contact) => (
        <option key={contact.id} value={contact.id}>
          {contact.name ? `${contact.name} <${contact.email}>` : contact.email}
        </option>
      ))}
      <option value="">Sample values (“Sample contact”)</option>
    </SelectField>
  );
}
