import { Subject, interval } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StateStore } from '../../src/application';

/** A minimal use-case over the base: a counter that ticks every second once started. */
class Ticker extends StateStore<number> {
  readonly stopped: string[] = [];
  constructor(private readonly source = interval(1000)) {
    super(0);
  }
  start(): void {
    this.own(this.source.pipe(this.untilDisposed()).subscribe(() => this.setState((n) => n + 1)));
    this.own(() => this.stopped.push('teardown'));
  }
  set(n: number): void {
    this.setState(n);
  }
}

describe('StateStore', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('exposes the current state on state$ and snapshot, and derives the next state from it', () => {
    const ticker = new Ticker();
    const seen: number[] = [];
    ticker.state$.subscribe((n) => seen.push(n));
    ticker.start();
    vi.advanceTimersByTime(3000);
    expect(seen).toEqual([0, 1, 2, 3]);
    expect(ticker.snapshot).toBe(3);
    ticker.dispose();
  });

  it('dispose closes every timer and subscription it owns, runs teardowns once and completes state$', () => {
    const ticker = new Ticker();
    let completed = 0;
    ticker.state$.subscribe({ complete: () => completed++ });
    ticker.start();
    expect(vi.getTimerCount()).toBe(1);
    ticker.dispose();
    ticker.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(ticker.stopped).toEqual(['teardown']);
    expect(completed).toBe(1);
    expect(ticker.disposed).toBe(true);
  });

  it('ignores state changes after dispose and runs a teardown added after dispose at once', () => {
    const source = new Subject<number>();
    const ticker = new Ticker(source);
    ticker.dispose();
    ticker.set(5);
    expect(ticker.snapshot).toBe(0);
    ticker.start();
    expect(source.observed).toBe(false);
    expect(ticker.stopped).toEqual(['teardown']);
  });
});
