import { lazy, Suspense, useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import type { OpenModal } from './registry';

/** The browser's history length when each modal depth was opened (per stack). */
const HISTORY_LENGTHS = new WeakMap<object, number[]>();
function historyLengths(stack: object): number[] {
  let lengths = HISTORY_LENGTHS.get(stack);
  if (!lengths) HISTORY_LENGTHS.set(stack, (lengths = []));
  return lengths;
}

/** Opening and closing modals from any component (typed by the registry). */
export function useModals(): { open: OpenModal; close: () => void; swap: OpenModal } {
  const stack = useInjection(TOKENS.ModalStack);
  const navigate = useNavigate();
  const location = useLocation();
  const open = useCallback<OpenModal>(
    (name, ...props) => {
      const opened = stack.open(name, (props[0] ?? {}) as Record<string, unknown>);
      // Each open modal is a history entry of the same page, so the back button closes it [R2.5-2].
      if (opened) {
        navigate(`${location.pathname}${location.search}${location.hash}`, { state: { modalDepth: stack.depth } });
        historyLengths(stack)[stack.depth] = window.history.length;
      }
      return opened;
    },
    [stack, navigate, location.pathname, location.search, location.hash],
  );
  const close = useCallback(() => {
    const depth = (location.state as { modalDepth?: number } | null)?.modalDepth ?? 0;
    const framed = window.history.length > (historyLengths(stack)[stack.depth] ?? Infinity);
    if (depth === stack.depth && depth > 0 && !framed) {
      // Closed at once, and its history entry left by going back: a second close before the
      // browser has moved (a double click, a repeated Escape) finds no modal to close, and never
      // goes back a second time, off the page.
      stack.close();
      navigate(-1);
      return;
    }
    stack.close();
    // A frame inside the modal (the payment provider's page) added entries after the modal's own:
    // going back would move that frame, so the modal's entry is replaced by the one below it.
    if (framed && depth === stack.depth + 1)
      navigate(`${location.pathname}${location.search}${location.hash}`, {
        replace: true,
        state: { modalDepth: stack.depth },
      });
  }, [stack, navigate, location.state, location.pathname, location.search, location.hash]);
  const swap = useCallback<OpenModal>(
    (name, ...props) => stack.swap(name, (props[0] ?? {}) as Record<string, unknown>),
    [stack],
  );
  return { open, close, swap };
}

/** The open modals' layer (the registry and the dialogs' frames): its own chunk, loaded when first needed. */
const ModalLayer = lazy(() => import('./modal-layer'));

/**
 * The open modals: at most a main one and a sub-modal over it [R2.5-1], each a modal `<dialog>`
 * closed by Escape or back. The layer's code (the registry and the dialogs' frames) is loaded when
 * a modal first opens; meanwhile the page is dimmed under a loading notice. (Not fetched ahead on
 * idle: a chunk that fails to load reloads the page, R9-13, and a background fetch on a flaky
 * network must not.)
 */
export function ModalHost() {
  const stack = useInjection(TOKENS.ModalStack);
  const state = useObservableState(stack.state$, stack.snapshot);
  const location = useLocation();
  const { open, close, swap } = useModals();
  // Back (or any move to an entry with fewer modals) closes the ones above it; a new page closes all.
  const depth = (location.state as { modalDepth?: number } | null)?.modalDepth ?? 0;
  // Only a move to another history entry closes modals: a page may open one as it mounts (the
  // settlement page opens the purchase modal), in the same commit as this host's first effect.
  const seenKey = useRef(location.key);
  useEffect(() => {
    if (seenKey.current === location.key) return;
    seenKey.current = location.key;
    if (stack.depth > depth) stack.closeTo(depth);
  }, [stack, depth, location.key]);
  if (!state.main && !state.sub) return null;
  return (
    <Suspense
      fallback={
        <div className="dialog-backdrop dialog-backdrop--main">
          <p className="dialog modal" role="status">
            {MESSAGES.loading}
          </p>
        </div>
      }
    >
      <ModalLayer main={state.main} sub={state.sub} open={open} swap={swap} close={close} />
    </Suspense>
  );
}
