import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/**
 * One labelled form field with its message beside it: the input names the message
 * (aria-describedby) and is marked invalid while it shows. `children` replaces the input (a select).
 */
export function FormField({
  label,
  error,
  hint,
  children,
  ...input
}: {
  readonly label: string;
  readonly error?: string | undefined;
  readonly hint?: string;
  readonly children?: (props: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'children'>) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {children ? (
        children({ id, describedBy, invalid: Boolean(error) })
      ) : (
        <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      )}
      {hint ? (
        <small id={`${id}-hint`} className="form-field__hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="form-field__error">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** The service's refusal of the last send, announced. */
export function FormError({ error }: { readonly error: string | null }) {
  return error ? (
    <p role="alert" className="form-field__error form-field__error--form">
      {error}
    </p>
  ) : null;
}
