import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TOKENS } from '../../application';
import { ACCOUNT_PAYMENT_SLUG } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { AgeStep, CompleteStep, EndedStep, IframeStep, PURCHASE_TITLE_ID, TopStep } from './purchase-steps';

/**
 * The purchase modal (spec §2.5 purchase): age → top → iframe → complete / cancel / error, one
 * dialog whose content is the step [R2.5-1]. Opened from the header's TC balance, the menu, the
 * settlement page and a play screen's 402. A guest is sent to log in and comes back here [R2.5-4].
 */
export default function PurchaseModal({ close }: ModalComponentProps<Record<never, never>>) {
  const buy = useScopedUseCase(TOKENS.BuyTc);
  const state = useObservableState(buy.state$, buy.snapshot);
  const navigate = useNavigate();
  const location = useLocation();
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, PURCHASE_TITLE_ID);
  useEffect(() => void buy.start(), [buy]);
  useEffect(() => {
    if (state.kind === 'signIn')
      navigate(`/login?next=${encodeURIComponent(`${location.pathname}${location.search}`)}`, { replace: true });
    // The account-based payment leaves for its own start page (§2.1 /purchase/{slug}).
    if (state.kind === 'handOff')
      navigate(`/purchase/${ACCOUNT_PAYMENT_SLUG}?product_id=${state.productId}`, { replace: true });
  }, [state, navigate, location.pathname, location.search]);
  return (
    <div ref={ref} className="modal__body purchase" data-step={state.kind}>
      {state.kind === 'loading' || state.kind === 'signIn' || state.kind === 'handOff' ? (
        <p id={PURCHASE_TITLE_ID} className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {state.kind === 'age' ? <AgeStep state={state} onSubmit={(b) => void buy.registerBirth(b)} /> : null}
      {state.kind === 'top' ? (
        <TopStep state={state} onMethod={(m) => void buy.chooseMethod(m)} onBuy={(id) => void buy.buy(id)} />
      ) : null}
      {state.kind === 'paying' ? <IframeStep state={state} onReturned={() => void buy.returned()} /> : null}
      {state.kind === 'complete' ? <CompleteStep state={state} onClose={close} /> : null}
      {state.kind === 'cancelled' || state.kind === 'failed' || state.kind === 'error' ? (
        <EndedStep kind={state.kind} message={state.message} onBack={() => void buy.start()} onClose={close} />
      ) : null}
    </div>
  );
}
