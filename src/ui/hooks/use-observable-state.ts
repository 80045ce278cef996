import { useMemo, useRef, useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';

interface ExternalStore<T> {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): T;
}

/** Adapts an observable to React's external-store protocol, remembering the latest value. */
function observableStore<T>(source$: Observable<T>, initial: T): ExternalStore<T> {
  let value = initial;
  return {
    subscribe(onChange) {
      const subscription = source$.subscribe((next) => {
        value = next;
        onChange();
      });
      return () => subscription.unsubscribe();
    },
    getSnapshot: () => value,
  };
}

/**
 * The latest value of an observable, re-rendering when it changes. A BehaviorSubject-backed
 * `state$` gives its current value at once, so `initial` is only shown before the first emission.
 */
export function useObservableState<T>(source$: Observable<T>, initial: T): T {
  const initialRef = useRef(initial);
  // eslint-disable-next-line react-hooks/refs -- read once to seed a new store when source$ changes
  const store = useMemo(() => observableStore(source$, initialRef.current), [source$]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
