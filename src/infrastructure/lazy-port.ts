import { defer, from, switchMap, type Observable } from 'rxjs';

/** A port whose every method answers an Observable (most of the app's ports). */
export type ObservablePort<P> = {
  readonly [K in keyof P]: P[K] extends (...args: infer A) => Observable<infer T>
    ? (...args: A) => Observable<T>
    : never;
};

/**
 * A port whose adapter's code is loaded on the first subscription to any of its methods' answers
 * (issue 27: an adapter no page needs before it is live stays out of the entry's JavaScript).
 * Nothing is loaded before; the adapter is made once and every call after goes to it. A load that
 * fails errors the call that asked, and the next call tries again. `methods` names every method
 * (a `Record<keyof P, true>`, so the compiler sees a method added to the port and not here).
 */
export function lazyPort<P extends ObservablePort<P>>(methods: Record<keyof P, true>, load: () => Promise<P>): P {
  let adapter: Promise<P> | undefined;
  const loaded = (): Promise<P> => {
    adapter ??= load().catch((error: unknown) => {
      adapter = undefined;
      throw error;
    });
    return adapter;
  };
  const port: Partial<Record<keyof P, unknown>> = {};
  for (const method of Object.keys(methods) as (keyof P)[]) {
    port[method] = (...args: unknown[]) =>
      defer(() => from(loaded())).pipe(
        switchMap((target) => (target[method] as (...a: unknown[]) => Observable<unknown>)(...args)),
      );
  }
  return port as P;
}
