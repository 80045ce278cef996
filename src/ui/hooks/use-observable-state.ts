import { startTransition, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
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

/**
 * The latest value of an observable whose changes are not urgent (what the socket says about the
 * stations on screen): each change renders as a transition. A page hydrates in parts
 * (`HydrationPart`), and an urgent change above a part not yet hydrated makes React hydrate that part
 * at once, in one blocking task; a transition lets it go on in slices. Starts at `initial` (what the
 * server rendered) and subscribes after the first commit.
 */
export function useObservableTransition<T>(source$: Observable<T>, initial: T): T {
  const [value, setValue] = useState(initial);
  useEffect(() => {
    const subscription = source$.subscribe((next) => startTransition(() => setValue(() => next)));
    return () => subscription.unsubscribe();
  }, [source$]);
  return value;
}
