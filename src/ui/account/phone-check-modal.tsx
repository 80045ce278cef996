import { useState } from 'react';
import { TOKENS } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { CodeSteps } from './account-form';
import { FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/** Phone check (spec §2.5): an SMS code to the number, then the code; verified, the badge item goes. */
export default function PhoneCheckModal(_: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="phone" title={A.phoneTitle} testId="phone-check-modal">
      {() => <PhoneForm />}
    </AccountModalFrame>
  );
}

function PhoneForm() {
  const check = useScopedUseCase(TOKENS.PhoneCheck);
  const state = useObservableState(check.state$, check.snapshot);
  const [tel, setTel] = useState('');
  const [code, setCode] = useState('');
  if (state.verifiedTel)
    return (
      <p role="status" data-testid="phone-verified">
        {A.phoneDone(state.verifiedTel)}
      </p>
    );
  return (
    <CodeSteps
      className="account-form"
      state={state}
      onSend={() => void check.sendCode(tel)}
      sendLabel={A.phoneSend}
      sentText={A.phoneSent}
      code={code}
      onCode={setCode}
      onVerify={() => void check.verify(code)}
      verifyLabel={A.phoneVerify}
      back={
        <button type="button" className="button button--quiet" onClick={() => check.restart()}>
          {A.otherNumber}
        </button>
      }
    >
      <p className="dialog__text">{A.phoneLead}</p>
      <FormField
        label={A.phoneNumber}
        type="tel"
        name="tel"
        autoComplete="tel"
        inputMode="tel"
        maxLength={20}
        value={tel}
        onChange={(e) => setTel(e.target.value)}
        error={state.fieldErrors.tel}
      />
    </CodeSteps>
  );
}
