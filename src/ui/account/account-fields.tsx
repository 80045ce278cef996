import type { ChangeEventHandler } from 'react';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX, VERIFICATION_CODE_DIGITS } from '../../domain';
import { ACCOUNT as A } from './account.messages';
import { FormField } from './form-field';

/*
 * The e-mail, password and code fields are props spread into a FormField, not components of their own: a
 * form that turns from one step to the next (an address, then its code) keeps its input element
 * where both steps have a FormField in the same place, as it always has.
 */

/** An e-mail address field: `<FormField {...EMAIL_FIELD} value onChange error />` (a label of its own may follow). */
export const EMAIL_FIELD = {
  label: A.email,
  type: 'email',
  name: 'email',
  autoComplete: 'email',
  maxLength: EMAIL_MAX_LENGTH,
} as const;

/**
 * The account's password as it is now (sign-in, a password change, the deletion):
 * `<FormField {...PASSWORD_FIELD} value onChange error />`, with a label and a name of its own where the form has one.
 */
export const PASSWORD_FIELD = {
  label: A.password,
  type: 'password',
  name: 'password',
  autoComplete: 'current-password',
  maxLength: PASSWORD_MAX,
} as const;

/** The code a mail or an SMS brought: `<FormField {...CODE_FIELD} value onChange error />`. */
export const CODE_FIELD = {
  label: A.code,
  name: 'code',
  inputMode: 'numeric',
  autoComplete: 'one-time-code',
  maxLength: VERIFICATION_CODE_DIGITS,
} as const;

/** One thing for each of the two new-password fields. */
type PasswordPair<T> = { readonly password: T; readonly confirm: T };

const NEW_PASSWORD_LABELS: PasswordPair<string> = { password: A.newPassword, confirm: A.newPasswordConfirm };
const PASSWORD_NAMES: PasswordPair<string> = { password: 'password', confirm: 'confirm' };

/**
 * A new password typed twice (sign-up, reset, change): the first field carries the password rule
 * as its hint; each shows its own message. `onChange(field)` gives the handler of one field.
 */
export function NewPasswordFields({
  labels = NEW_PASSWORD_LABELS,
  names = PASSWORD_NAMES,
  values,
  onChange,
  errors,
}: {
  readonly labels?: PasswordPair<string>;
  readonly names?: PasswordPair<string>;
  readonly values: PasswordPair<string>;
  readonly onChange: (field: keyof PasswordPair<string>) => ChangeEventHandler<HTMLInputElement>;
  readonly errors: Partial<PasswordPair<string | undefined>>;
}) {
  return (
    <>
      <FormField
        {...PASSWORD_FIELD}
        label={labels.password}
        name={names.password}
        autoComplete="new-password"
        hint={A.passwordHint}
        value={values.password}
        onChange={onChange('password')}
        error={errors.password}
      />
      <FormField
        {...PASSWORD_FIELD}
        label={labels.confirm}
        name={names.confirm}
        autoComplete="new-password"
        value={values.confirm}
        onChange={onChange('confirm')}
        error={errors.confirm}
      />
    </>
  );
}
