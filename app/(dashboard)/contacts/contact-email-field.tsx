import { TextField } from '../../components/field';

/** The address of a contact being added: typed as an address (no capitals, no spelling help), focused first. */
export function ContactEmailField({ value, onChange, description, error }: { value: string; onChange: (value: string) => void; description: string; error?: string }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      inputMode="email"
      placeholder="ada@example.com"
      required
      maxLength={320}
      autoFocus
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      description={description}
      error={error}
    />
  );
}
