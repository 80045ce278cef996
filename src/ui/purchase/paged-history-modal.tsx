import { useEffect, useRef, type ReactNode } from 'react';
import type { PagedHistoryState } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { useDialogName } from '../modals/use-dialog-name';
import { HISTORY_MESSAGES as H } from './purchase.messages';
import type { Observable } from 'rxjs';

/** What a paged history modal needs from its use-case. */
interface PagedHistorySource<T> {
  readonly state$: Observable<PagedHistoryState<T>>;
  readonly snapshot: PagedHistoryState<T>;
  start(): Promise<void>;
  more(): Promise<void>;
}

/**
 * The frame every paged history modal shares: the title (naming the dialog), the empty text, the
 * entries as the modal draws them, loading and error, and "もっと見る" while pages remain.
 */
export function PagedHistoryModal<T>({
  id,
  title,
  empty,
  history,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  history: PagedHistorySource<T>;
  children: (entries: readonly T[]) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, `${id}-title`);
  const state = useObservableState(history.state$, history.snapshot);
  useEffect(() => void history.start(), [history]);
  return (
    <div ref={ref} className="modal__body history" data-testid={id}>
      <h2 id={`${id}-title`} className="dialog__title">
        {title}
      </h2>
      {state.entries.length === 0 && !state.loading && state.page > 0 ? <p>{empty}</p> : null}
      {state.entries.length > 0 ? children(state.entries) : null}
      {state.loading ? <p role="status">{MESSAGES.loading}</p> : null}
      {state.error ? <p role="alert">{state.error}</p> : null}
      {state.hasMore && !state.loading ? (
        <button type="button" className="button button--secondary" onClick={() => void history.more()}>
          {H.more}
        </button>
      ) : null}
    </div>
  );
}
