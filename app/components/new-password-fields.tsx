import { TextField } from './field';

/** Whether the two new-password fields of `form` differ (the repeat is named `confirm`). */
export const newPasswordsDiffer = (form: FormData, name: string) => String(form.get(name)) !== String(form.get('confirm'));

/**
 * A new password and its repeat, with the bounds better-auth checks (8 to 128 characters): the
 * reset page's and the account page's. `error` is the server's word on the new one; `mismatch`
 * marks the repeat.
 */
export function NewPasswordFields({ name, mismatch, error }: { name: string; mismatch: boolean; error?: string }) {
  return (
    <>
      <TextField label="New password" name={name} type="password" autoComplete="new-password" required minLength={8} maxLength={128} hint="At least 8 characters" error={error} />
      <TextField
        label="Repeat the new password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        error={mismatch ? 'The two passwords differ' : undefined}
      />
    </>
  );
}
