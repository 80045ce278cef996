import { isObservable, of, throwError, type Observable } from 'rxjs';

/** A call a scripted fake received: which method and with which arguments. */
export interface RecordedCall<M extends string = string> {
  readonly method: M;
  readonly args: readonly unknown[];
}

/** What a scripted method answers: a value, a whole observable (for timing or streams), or a failure. */
export type ScriptedAnswer<T> =
  { readonly value: T } | { readonly observable: Observable<T> } | { readonly error: unknown };

/** The methods of a port that answer with an observable. */
export type ObservableMethods<P> = {
  [K in keyof P]: P[K] extends (...args: never[]) => Observable<unknown> ? K : never;
}[keyof P] &
  string;

type Emitted<F> = F extends (...args: never[]) => Observable<infer T> ? T : never;

/** Raised when a scripted fake is called with no answer scripted for that method. */
export class UnscriptedCallError extends Error {
  override readonly name = 'UnscriptedCallError';
}

/**
 * The engine of every scripted fake in onkure/testing: the test gives each method's answers
 * (`answer`, queued, or `always`), the fake records every call in `calls`, and nothing else happens —
 * no rule of the service is re-implemented. A call with nothing scripted errors with
 * UnscriptedCallError, so a test notices a call it did not expect.
 *
 * @example
 * const catalog = new ScriptedPrizeCatalog();
 * catalog.always('topPage', aTopPage());
 * catalog.answer('searchPrizes', { error: new Error('offline') });
 * // … bind catalog.port, run the use-case …
 * expect(catalog.callsOf('topPage')).toEqual([[{ shopId: 1 }]]);
 */
export class Scripted<P extends object> {
  private readonly queued = new Map<string, ScriptedAnswer<unknown>[]>();
  private readonly fixed = new Map<string, ScriptedAnswer<unknown>>();
  private readonly recorded: RecordedCall<ObservableMethods<P>>[] = [];

  /** The port to bind in the container (`[TOKENS.PrizeCatalogPort, fake.port]`). */
  readonly port: P;

  constructor(readonly portName: string) {
    this.port = new Proxy({} as P, {
      get: (_target, property) => {
        if (typeof property !== 'string' || property === 'then') return undefined;
        return (...args: unknown[]) => this.call(property as ObservableMethods<P>, args);
      },
    });
  }

  /** Queues answers for the next calls of `method`, one per call, before any `always` answer. */
  answer<K extends ObservableMethods<P>>(method: K, ...answers: ScriptedAnswer<Emitted<P[K]>>[]): this {
    this.queued.set(method, [...(this.queued.get(method) ?? []), ...answers]);
    return this;
  }

  /** Answers every call of `method` (after the queued ones) with `value`. */
  always<K extends ObservableMethods<P>>(method: K, value: Emitted<P[K]>): this {
    this.fixed.set(method, { value });
    return this;
  }

  /** Every call received, in order. */
  get calls(): readonly RecordedCall<ObservableMethods<P>>[] {
    return this.recorded;
  }

  /** The argument lists of one method's calls, in order. */
  callsOf(method: ObservableMethods<P>): readonly (readonly unknown[])[] {
    return this.recorded.filter((c) => c.method === method).map((c) => c.args);
  }

  private call(method: ObservableMethods<P>, args: unknown[]): Observable<unknown> {
    this.recorded.push({ method, args });
    const next = this.queued.get(method)?.shift() ?? this.fixed.get(method);
    if (!next)
      return throwError(() => new UnscriptedCallError(`${this.portName}.${method} was called with no answer scripted`));
    if ('error' in next) return throwError(() => next.error);
    if ('observable' in next) return next.observable;
    return isObservable(next.value) ? next.value : of(next.value);
  }
}
