import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { AddressBookState, ZipPlace } from '../../application';
import { ADDRESS_FIELD_LABELS, LEAD_TIMES, normalizeZip, PREFECTURES, type AddressForm } from '../../domain';
import { DELIVERY as D } from './delivery.messages';

export const EMPTY_ADDRESS: AddressForm = {
  id: 0,
  isMain: false,
  lastName: '',
  firstName: '',
  zip: '',
  address1: '',
  address2: '',
  address3: '',
  tel: '',
  email: '',
  leadTimes: '',
};

type TextField = 'lastName' | 'firstName' | 'zip' | 'address2' | 'address3' | 'tel' | 'email';

/**
 * The address form (registration and change): every field labelled, its message under it (the
 * domain's validateAddressForm, the same words the server answers), the prefecture from the 47,
 * the preferred time slot, and "make main". `onSave` answers whether it was saved.
 */
export function AddressEditor({
  initial,
  state,
  onSave,
  onCancel,
  lookup,
}: {
  initial: AddressForm;
  state: Pick<AddressBookState, 'busy' | 'error' | 'fieldErrors'>;
  onSave: (form: AddressForm) => void;
  onCancel: () => void;
  /** The postal-code lookup: a 7-digit code fills the prefecture and, when empty, the city. */
  lookup: (zip: string) => Promise<readonly ZipPlace[]>;
}) {
  const [form, setForm] = useState(initial);
  const [found, setFound] = useState<'filled' | 'none' | null>(null);
  const looked = useRef(normalizeZip(initial.zip));
  const id = useId();
  useEffect(() => {
    const zip = normalizeZip(form.zip);
    if (zip === null || zip === looked.current) return undefined;
    looked.current = zip;
    let live = true;
    void lookup(zip).then((places) => {
      if (!live) return;
      const place = places[0];
      if (!place) {
        setFound('none');
        return;
      }
      setFound('filled');
      setForm((f) => ({
        ...f,
        address1: place.prefecture,
        address2: f.address2.trim() === '' ? `${place.city}${places.length === 1 ? place.town : ''}` : f.address2,
      }));
    });
    return () => {
      live = false;
    };
  }, [form.zip, lookup]);
  const set = (field: keyof AddressForm, value: string | boolean) => setForm((f) => ({ ...f, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(form);
  };
  const text = (
    field: TextField,
    autoComplete: string,
    extra: { inputMode?: 'numeric' | 'tel' | 'email'; placeholder?: string } = {},
  ) => {
    const error = state.fieldErrors[field];
    return (
      <div className="address-form__field" key={field}>
        <label htmlFor={`${id}-${field}-input`}>
          {field === 'email' ? D.emailOptional : ADDRESS_FIELD_LABELS[field]}
        </label>
        <input
          id={`${id}-${field}-input`}
          name={field}
          value={form[field]}
          autoComplete={autoComplete}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${field}` : undefined}
          onChange={(e) => set(field, e.target.value)}
          {...extra}
        />
        {error ? (
          <small id={`${id}-${field}`} className="address-form__error">
            {error}
          </small>
        ) : null}
      </div>
    );
  };
  const prefectureError = state.fieldErrors.address1;
  return (
    <form className="address-form" onSubmit={submit} noValidate data-testid="address-form">
      <div className="address-form__row">
        {text('lastName', 'family-name')}
        {text('firstName', 'given-name')}
      </div>
      {text('zip', 'postal-code', { inputMode: 'numeric', placeholder: D.zipPlaceholder })}
      <p className="purchase__note" role="status" data-testid="zip-lookup">
        {found === 'filled' ? D.zipFilled : found === 'none' ? D.zipUnknown : ''}
      </p>
      <div className="address-form__field">
        <label htmlFor={`${id}-address1-input`}>{ADDRESS_FIELD_LABELS.address1}</label>
        <select
          id={`${id}-address1-input`}
          name="address1"
          value={form.address1}
          autoComplete="address-level1"
          aria-invalid={prefectureError ? true : undefined}
          aria-describedby={prefectureError ? `${id}-address1` : undefined}
          onChange={(e) => set('address1', e.target.value)}
        >
          <option value="">{D.prefectureChoose}</option>
          {PREFECTURES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        {prefectureError ? (
          <small id={`${id}-address1`} className="address-form__error">
            {prefectureError}
          </small>
        ) : null}
      </div>
      {text('address2', 'address-level2')}
      {text('address3', 'address-line1')}
      {text('tel', 'tel', { inputMode: 'tel' })}
      {text('email', 'email', { inputMode: 'email' })}
      <label className="address-form__field">
        <span>{D.leadTimeLabel}</span>
        <select name="leadTimes" value={form.leadTimes} onChange={(e) => set('leadTimes', e.target.value)}>
          {LEAD_TIMES.map((t) => (
            <option key={t} value={t}>
              {t === '' ? D.leadTimeAny : t}
            </option>
          ))}
        </select>
      </label>
      <label className="address-form__check">
        <input type="checkbox" checked={form.isMain} onChange={(e) => set('isMain', e.target.checked)} />
        <span>{D.makeMain}</span>
      </label>
      {state.error ? (
        <p role="alert" className="address-form__error">
          {state.error}
        </p>
      ) : null}
      <div className="panel__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {D.cancel}
        </button>
        <button type="submit" className="button" disabled={state.busy} data-testid="address-save">
          {state.busy ? D.saving : D.save}
        </button>
      </div>
    </form>
  );
}
