import { useEffect } from 'react';
import { SignInLinks } from '../account/sign-in-links';
import { TOKENS, type CurrentUserState } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';

/**
 * The crane item list (spec §2.5): the signed-in player's crane items, name × count, from the
 * current user's data (read again each time the list opens, so counts are fresh). A guest is asked
 * to sign in; a player with no items sees the empty state; a failed read offers another try.
 */
export default function CraneItemListModal({ close }: ModalComponentProps<Record<never, never>>) {
  const currentUser = useInjection(TOKENS.CurrentUser);
  const state = useObservableState(currentUser.view$, currentUser.snapshot);
  useEffect(() => {
    currentUser.reload();
  }, [currentUser]);
  return (
    <div className="modal__body" data-testid="crane-item-list" data-state={state.kind}>
      <h2 className="dialog__title">{MESSAGES.craneItemListTitle}</h2>
      <CraneItems state={state} retry={() => currentUser.reload()} />
      <button type="button" className="button button--quiet" onClick={close}>
        {MESSAGES.close}
      </button>
    </div>
  );
}

function CraneItems({ state, retry }: { state: CurrentUserState; retry: () => void }) {
  switch (state.kind) {
    case 'guest':
      return (
        <>
          <p className="dialog__text">{MESSAGES.craneItemListSignIn}</p>
          <SignInLinks className="panel__actions" />
        </>
      );
    case 'failed':
      return (
        <>
          <p className="dialog__text" role="alert">
            {MESSAGES.craneItemListFailed}
          </p>
          <div className="panel__actions">
            <button type="button" className="button" onClick={retry}>
              {MESSAGES.retry}
            </button>
          </div>
        </>
      );
    case 'ready':
      if (state.user.crane_items.length === 0)
        return <p className="prize-section__empty">{MESSAGES.craneItemListEmpty}</p>;
      return (
        <ul className="history__list" aria-label={MESSAGES.craneItemListTitle}>
          {state.user.crane_items.map((item) => (
            <li key={item.item_id} className="history__row" data-testid="crane-item">
              <span>{item.name}</span>
              <span>{MESSAGES.craneItemCount(item.count)}</span>
            </li>
          ))}
        </ul>
      );
    default:
      return (
        <p className="dialog__text" aria-busy="true">
          {MESSAGES.loading}
        </p>
      );
  }
}
