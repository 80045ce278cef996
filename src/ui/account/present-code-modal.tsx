import { useState } from 'react';
import { TOKENS } from '../../application';
import { formatThousands } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { ACCOUNT as A } from './account.messages';
import { FormError, FormField } from './form-field';
import { AccountModalFrame } from './modal-frame';

/** Present code (spec §2.5): a code gives free TC (through the ledger: it shows in the TC history) or tickets. */
export default function PresentCodeModal(_: ModalComponentProps<Record<never, never>>) {
  return (
    <AccountModalFrame id="present" title={A.presentTitle} testId="present-code-modal">
      {() => <PresentForm />}
    </AccountModalFrame>
  );
}

function PresentForm() {
  const redeem = useScopedUseCase(TOKENS.PresentCodeRedeem);
  const state = useObservableState(redeem.state$, redeem.snapshot);
  const [code, setCode] = useState('');
  const done = state.done;
  return (
    <form
      className="account-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void redeem.redeem(code).then(() => {
          if (redeem.snapshot.error === null && Object.keys(redeem.snapshot.fieldErrors).length === 0) setCode('');
        });
      }}
    >
      <p className="dialog__text">{A.presentLead}</p>
      <FormField
        label={A.presentCode}
        name="present-code"
        autoComplete="off"
        autoCapitalize="characters"
        maxLength={20}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={state.fieldErrors.code}
      />
      <FormError error={state.error} />
      {done ? (
        <p role="status" data-testid="present-result">
          {done.present.kind === 'tc_free'
            ? A.presentTc(formatThousands(done.present.amount))
            : A.presentTicket(done.present.amount)}{' '}
          {A.presentBalance(formatThousands(done.tc.tc_all))}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={state.busy}>
        {A.presentSubmit}
      </button>
    </form>
  );
}
