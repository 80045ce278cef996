import { StateStore } from '../use-cases/state-store';
import { failureInfo } from './operator-call-failed';
import type { OperatorSession } from './operator-session.use-case';

/** An action a screen runs (after the operator confirmed it) and how it ended. */
export interface ActionState<N extends string = string> {
  readonly status: 'idle' | 'running' | 'done' | 'failed';
  readonly name: N | null;
  /** The answer of a finished action (the refunded play, the connections reached…). */
  readonly result: unknown;
  /** The server's words for a failure ('' when it gave none). */
  readonly error: string | null;
}

export interface ScreenState<T, N extends string = string> {
  readonly status: 'idle' | 'loading' | 'ready' | 'error';
  readonly data: T;
  /** The server's words for a failed read ('' when it gave none). */
  readonly error: string | null;
  readonly action: ActionState<N>;
}

export const IDLE_ACTION: ActionState<never> = { status: 'idle', name: null, result: null, error: null };

/**
 * The base of a console screen's use-case: one read (`load`) whose data stays shown while it is
 * read again, and one action at a time (`act`) whose answer or refusal stays shown until the next.
 * A 403 goes to the session, which returns to the sign-in screen when the session is over.
 */
export abstract class OperatorScreen<T, N extends string = string> extends StateStore<ScreenState<T, N>> {
  private reads = 0;

  protected constructor(
    protected readonly session: Pick<OperatorSession, 'refused' | 'active'>,
    empty: T,
  ) {
    super({ status: 'idle', data: empty, error: null, action: IDLE_ACTION });
  }

  /**
   * Reads the screen's data; a later read wins over an earlier one still running. Nothing is read
   * while the session is not active (a sign-out under way: the read would be refused).
   */
  protected async load(read: () => Promise<T>): Promise<void> {
    if (!this.session.active) return;
    const mine = ++this.reads;
    this.setState((s) => ({ ...s, status: 'loading' }));
    try {
      const data = await read();
      if (mine === this.reads) this.setState((s) => ({ ...s, status: 'ready', data, error: null }));
    } catch (error) {
      if (mine === this.reads) this.setState((s) => ({ ...s, status: 'error', error: failureInfo(error) ?? '' }));
      void this.session.refused(error);
    }
  }

  /**
   * Runs one action; null when it failed or another one is running. An `urgent` action (an
   * emergency stop) runs even while another is: nothing may hold it back.
   */
  protected async act<R>(name: N, run: () => Promise<R>, urgent = false): Promise<R | null> {
    if (this.snapshot.action.status === 'running' && !urgent) return null;
    this.setState((s) => ({ ...s, action: { status: 'running', name, result: null, error: null } }));
    try {
      const result = await run();
      this.setState((s) => ({ ...s, action: { status: 'done', name, result, error: null } }));
      return result;
    } catch (error) {
      this.setState((s) => ({
        ...s,
        action: { status: 'failed', name, result: null, error: failureInfo(error) ?? '' },
      }));
      void this.session.refused(error);
      return null;
    }
  }

  /** Clears the last action's outcome (the operator closed its message). */
  dismissAction(): void {
    this.setState((s) => ({ ...s, action: IDLE_ACTION }));
  }
}
