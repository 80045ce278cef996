import { useEffect, useState } from 'react';
import { TOKENS } from '../../application';
import { PREFECTURES } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/**
 * Nickname and profile (spec §2.5): nickname, sex, birth date (set once) and prefecture; as the
 * first-profile prompt [R4.7-3] it says why it opened and offers "later".
 */
export default function ProfileModal({ props, close }: ModalComponentProps<{ readonly prompt?: boolean }>) {
  return (
    <AccountModalFrame
      id="profile"
      title={props.prompt ? A.profilePromptTitle : A.profileTitle}
      testId={props.prompt ? 'profile-prompt' : 'profile-modal'}
    >
      {() => <ProfileForm prompt={props.prompt === true} close={close} />}
    </AccountModalFrame>
  );
}

function ProfileForm({ prompt, close }: { prompt: boolean; close: () => void }) {
  const settings = useScopedUseCase(TOKENS.ProfileSettings);
  const state = useObservableState(settings.state$, settings.snapshot);
  const [form, setForm] = useState<{ nickname: string; sex: string; birth: string; prefectures: string } | null>(null);
  useEffect(() => void settings.start(), [settings]);
  const view = state.view;
  // The form starts from what is registered, once it has loaded.
  if (view && form === null) {
    setForm({
      nickname: view.nickname.isNicknameUnregistered ? '' : view.nickname.nickname,
      sex: view.profile.sex ? String(view.profile.sex) : '',
      birth: view.profile.birth,
      prefectures: view.profile.prefectures,
    });
  }
  if (state.loadError) return <p role="alert">{state.loadError}</p>;
  if (form === null) return <p role="status">{MESSAGES.loading}</p>;
  const birthFixed = (view?.profile.birth ?? '') !== '';
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => (f ? { ...f, [field]: e.target.value } : f));
  return (
    <form
      className="account-form"
      noValidate
      data-testid="profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        void settings.save(form).then(() => {
          if (prompt && settings.snapshot.done) close();
        });
      }}
    >
      {prompt ? <p className="dialog__text">{A.profilePromptLead}</p> : null}
      <FormField
        label={A.nickname}
        name="nickname"
        autoComplete="nickname"
        maxLength={32}
        hint={A.nicknameHint}
        value={form.nickname}
        onChange={set('nickname')}
        error={state.fieldErrors.nickname}
      />
      <FormField label={A.sex} error={state.fieldErrors.sex}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="sex"
            value={form.sex}
            onChange={set('sex')}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          >
            <option value="">{A.choose}</option>
            {Object.entries(A.sexOptions).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label={A.birth}
        type="date"
        name="birth"
        autoComplete="bday"
        value={form.birth}
        readOnly={birthFixed}
        hint={A.birthFixed}
        onChange={set('birth')}
        error={state.fieldErrors.birth}
      />
      <FormField label={A.prefecture} error={state.fieldErrors.prefectures}>
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            name="prefectures"
            value={form.prefectures}
            onChange={set('prefectures')}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
          >
            <option value="">{A.choose}</option>
            {PREFECTURES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormError error={state.error} />
      {state.done && !prompt ? <p role="status">{A.saved}</p> : null}
      <div className="panel__actions">
        <button type="submit" className="button" disabled={state.busy}>
          {A.save}
        </button>
        {prompt ? (
          <button type="button" className="button button--quiet" onClick={close}>
            {A.later}
          </button>
        ) : null}
      </div>
    </form>
  );
}
