/**
 * A token bucket on the caller's clock: `ratePerSecond` tokens flow in, at most `burst` are kept.
 * `take` checks and takes in one synchronous step, so no frame or command slips in between.
 */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Takes one token and answers true, or answers false (taking nothing) when none is left. */
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.ratePerSecond);
    this.at = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Gives back a token taken for an attempt that turned out not to count (a call that succeeded). */
  refund(): void {
    this.tokens = Math.min(this.burst, this.tokens + 1);
  }
}
