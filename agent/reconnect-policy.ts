import { AGENT_CLOSE } from '../src/contract/agent.schema';

/** Close codes after which the agent must not dial again with the same key and build. */
export const FATAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  AGENT_CLOSE.badKey,
  AGENT_CLOSE.forbiddenStation,
  AGENT_CLOSE.replaced,
  AGENT_CLOSE.unsupportedVersion,
]);

/** What the operator should read when the server refuses the agent for good. */
export function refusalHint(code: number): string {
  if (code === AGENT_CLOSE.badKey) return 'the station key was refused (unknown, revoked or expired)';
  if (code === AGENT_CLOSE.forbiddenStation) return 'the key does not name every station in the machine file';
  if (code === AGENT_CLOSE.replaced) return 'another agent took over a station of this one';
  return 'the server does not speak this protocol version (upgrade the agent)';
}

export const RECONNECT_MIN_MS = 500;
export const RECONNECT_MAX_MS = 10_000;
/** Attempts after which the wait has reached its bound. */
const ATTEMPTS_TO_MAX = Math.ceil(Math.log2(RECONNECT_MAX_MS / RECONNECT_MIN_MS));

/**
 * Reconnect waits: between half and the whole of 0.5 s, 1 s, 2 s … up to 10 s (the jitter spreads
 * many agents of a shop that lost the server at once); a welcome starts again from 0.5 s.
 */
export class Backoff {
  private attempt = 0;

  constructor(private readonly random: () => number = Math.random) {}

  next(): number {
    const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** this.attempt);
    this.attempt += 1;
    return base * (0.5 + 0.5 * this.random());
  }

  reset(): void {
    this.attempt = 0;
  }

  /** The server said too many frames: wait the longest before dialing again. */
  slowDown(): void {
    this.attempt = Math.max(this.attempt, ATTEMPTS_TO_MAX);
  }
}
