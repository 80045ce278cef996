import { useMemo, useRef, useSyncExternalStore } from 'react';
import type { Observable } from 'rxjs';

/**
 * The latest value of an observable, re-rendering when it changes. A BehaviorSubject-backed
 * `state$` gives its current value at once, so `initial` is only shown before the first emission.
 */
export function useObservableState<T>(source$: Observable<T>, initial: T): T {
  const initialRef = useRef(initial);
  const store = useMemo(() => {
    let value = initialRef.current;
    return {
      subscribe(onChange: () => void) {
        const subscription = source$.subscribe((next) => {
          value = next;
          onChange();
        });
        return () => subscription.unsubscribe();
      },
      getSnapshot: () => value,
    };
  }, [source$]);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
