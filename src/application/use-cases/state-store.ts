import { BehaviorSubject, Subject, Subscription, takeUntil, type MonoTypeOperatorFunction, type Observable } from 'rxjs';

/**
 * Something with a lifetime its owner ends: a page or component scope (`useScopedUseCase`), a test,
 * or another host. `dispose()` is idempotent.
 */
export interface Disposable {
  dispose(): void;
  readonly disposed: boolean;
}

/**
 * The base of a use-case: its state behind a private BehaviorSubject, exposed as `state$` (which
 * never errors) and `snapshot`, and one owner for everything the use-case opens. Streams piped
 * through `untilDisposed()` and subscriptions handed to `own()` end when `dispose()` is called, and
 * `state$` completes then, so a scope that disposes its use-cases leaks no subscription or timer.
 *
 * Constructors open nothing outside the use-case (no request, timer or socket): work starts with a
 * command. A use-case created and dropped without `dispose()` (React's StrictMode renders twice)
 * therefore holds nothing.
 *
 * @example
 * class Countdown extends StateStore<number> {
 *   constructor() { super(10); }
 *   start(): void { this.own(interval(1000).pipe(take(10)).subscribe(() => this.setState((n) => n - 1))); }
 * }
 */
export abstract class StateStore<S> implements Disposable {
  private readonly state: BehaviorSubject<S>;
  private readonly owned = new Subscription();
  private readonly disposing = new Subject<void>();

  /** Every state, starting with the current one; completes on dispose, never errors. */
  readonly state$: Observable<S>;

  protected constructor(initial: S) {
    this.state = new BehaviorSubject(initial);
    this.state$ = this.state.asObservable();
  }

  /** The current state. */
  get snapshot(): S {
    return this.state.value;
  }

  get disposed(): boolean {
    return this.owned.closed;
  }

  /** Replaces the state (or derives it from the current one). Ignored once disposed. */
  protected setState(next: S | ((current: S) => S)): void {
    if (this.disposed) return;
    this.state.next(typeof next === 'function' ? (next as (current: S) => S)(this.state.value) : next);
  }

  /** Ends a stream when the use-case is disposed (unsubscribing cancels requests and timers). */
  protected untilDisposed<T>(): MonoTypeOperatorFunction<T> {
    return takeUntil(this.disposing);
  }

  /** Ties a subscription or a teardown to the use-case's lifetime; run at once if already disposed. */
  protected own(teardown: Subscription | (() => void)): void {
    this.owned.add(teardown);
  }

  /** Cancels everything the use-case opened and completes `state$`. Safe to call twice. */
  dispose(): void {
    if (this.disposed) return;
    this.disposing.next();
    this.disposing.complete();
    this.owned.unsubscribe();
    this.state.complete();
  }
}
