import { useEffect, useRef } from 'react';
import { TOKENS } from '../../application';
import { useInjection } from '../di/container-context';
import { useModals } from './modal-host';
import type { ModalName, ModalPropsOf } from './registry';

/**
 * A registry modal that follows a use-case's state (an alert, a popup, a reveal): it opens while
 * `props` is set, takes new props in place when they change, and closes when they clear or the
 * component unmounts. When the player closes it (its button, Escape, the backdrop, back), `dismiss`
 * runs once, and the use-case clears its state. So these dialogs are the registry's modal dialogs,
 * with their focus handling, Escape and back button, like every other modal.
 *
 * A main and a sub-modal are open at most [R2.5-1]: when both are taken, the dialog waits and
 * opens as soon as one closes (nothing is lost, and no third modal ever shows). `props` must keep
 * its identity while it means the same dialog (build it with useMemo).
 *
 * @example
 * const alert = useMemo(() => (state.alert ? { message: state.alert.message } : null), [state.alert]);
 * useStateModal('alert', alert, () => kuji.dismissAlert());
 */
export function useStateModal<K extends ModalName>(name: K, props: ModalPropsOf<K> | null, dismiss: () => void): void {
  const stack = useInjection(TOKENS.ModalStack);
  const { open, close } = useModals();
  const latest = useRef({ name, props, dismiss, open, close });
  /** The props object the stack shows for this dialog, or null. */
  const shown = useRef<object | null>(null);
  /** Props the player closed: not opened again while the use-case clears them. */
  const dismissed = useRef<object | null>(null);
  const reconcileRef = useRef<(() => void) | null>(null);

  useEffect(() => {
    latest.current = { name, props, dismiss, open, close };
  });

  useEffect(() => {
    const isShown = (p: object) => stack.snapshot.main?.props === p || stack.snapshot.sub?.props === p;
    // Closing while the page stays goes back through history (back then does not reopen it); on
    // unmount the page is leaving (maybe to a link in the dialog), so only the stack is closed.
    const closeShown = (withHistory: boolean) => {
      const p = shown.current;
      shown.current = null;
      if (!p || !isShown(p)) return;
      const top = stack.snapshot.sub ?? stack.snapshot.main;
      if (top?.props === p && withHistory) latest.current.close();
      else if (top?.props === p) stack.close();
      else stack.closeTo(0);
    };
    const reconcile = () => {
      const { name: n, props: wanted } = latest.current;
      const current = shown.current;
      if (current && !isShown(current)) {
        // The player closed it (or a new page closed every modal).
        shown.current = null;
        if (wanted) {
          dismissed.current = wanted;
          latest.current.dismiss();
        }
        return;
      }
      if (!wanted) {
        dismissed.current = null;
        if (current) closeShown(true);
        return;
      }
      if (current && current !== wanted) {
        stack.replace(current as Record<string, unknown>, wanted as Record<string, unknown>);
        shown.current = wanted;
        return;
      }
      if (!current && wanted !== dismissed.current && stack.depth < 2) {
        shown.current = wanted;
        const opened = (latest.current.open as (m: ModalName, p: unknown) => boolean)(n, wanted);
        if (!opened) shown.current = null;
      }
    };
    reconcileRef.current = reconcile;
    // Not inside the stack's own emission: opening from there would hand later subscribers (the
    // host) the older state after the newer one.
    let active = true;
    const subscription = stack.state$.subscribe(() => {
      void Promise.resolve().then(() => active && reconcile());
    });
    return () => {
      active = false;
      subscription.unsubscribe();
      reconcileRef.current = null;
      closeShown(false);
    };
  }, [stack]);

  useEffect(() => {
    reconcileRef.current?.();
  }, [props]);
}
