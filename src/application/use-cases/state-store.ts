import {
  BehaviorSubject,
  firstValueFrom,
  Subject,
  Subscription,
  takeUntil,
  type MonoTypeOperatorFunction,
  type Observable,
} from 'rxjs';

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
  private adoptedKey: string | null = null;

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

  /**
   * Server rendering: takes a state loaded elsewhere (the server's render of this page, sent in the
   * page) as the current one, remembering what it answers (`key`), so the command that would load
   * it can skip the request (`takeAdopted`). Nothing is fetched twice for one page view.
   */
  protected adoptState(key: string, state: S): void {
    if (this.disposed) return;
    this.adoptedKey = key;
    this.state.next(state);
  }

  /** True once when the adopted state answers `key`; any later command loads as usual. */
  protected takeAdopted(key: string): boolean {
    const hit = this.adoptedKey === key;
    this.adoptedKey = null;
    return hit;
  }

  /** Ends a stream when the use-case is disposed (unsubscribing cancels requests and timers). */
  protected untilDisposed<T>(): MonoTypeOperatorFunction<T> {
    return takeUntil(this.disposing);
  }

  /**
   * The first answer of a call, or null when it answers nothing, fails (logged: the screen stays
   * usable) or the use-case is disposed first.
   */
  protected async firstOrNull<T>(call: () => Observable<T>): Promise<T | null> {
    try {
      return await firstValueFrom(call().pipe(this.untilDisposed()), { defaultValue: null });
    } catch (error) {
      console.warn(`onkure: ${this.constructor.name} call failed`, error);
      return null;
    }
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
