import { injectable } from 'inversify';
import { StateStore } from './state-store';

/** One open modal: its registry name and its props. */
export interface ModalEntry {
  readonly name: string;
  readonly props: Readonly<Record<string, unknown>>;
}

/** At most one main modal and one sub-modal [R2.5-1]. */
export interface ModalStackState {
  readonly main: ModalEntry | null;
  readonly sub: ModalEntry | null;
}

/**
 * The open modals (spec §2.5): one main modal and, on top of it, one sub-modal at most [R2.5-1].
 * `open` answers false (and opens nothing) when both are taken. App-lifetime: one per container.
 */
@injectable()
export class ModalStack extends StateStore<ModalStackState> {
  constructor() {
    super({ main: null, sub: null });
  }

  /** How many modals are open (0, 1 or 2). */
  get depth(): number {
    return (this.snapshot.main ? 1 : 0) + (this.snapshot.sub ? 1 : 0);
  }

  open(name: string, props: Readonly<Record<string, unknown>> = {}): boolean {
    const s = this.snapshot;
    if (!s.main) this.setState({ main: { name, props }, sub: null });
    else if (!s.sub) this.setState({ ...s, sub: { name, props } });
    else return false;
    return true;
  }

  /** Gives the open modal whose props are `props` new props (a dialog following changed state). */
  replace(props: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): void {
    const s = this.snapshot;
    if (s.main?.props === props) this.setState({ ...s, main: { ...s.main, props: next } });
    else if (s.sub?.props === props) this.setState({ ...s, sub: { ...s.sub, props: next } });
  }

  /**
   * Puts another modal in the top modal's place (a delivery request short of TC becomes the
   * purchase modal): same depth, so the history entry of that place serves the new one.
   */
  swap(name: string, props: Readonly<Record<string, unknown>> = {}): boolean {
    const s = this.snapshot;
    if (s.sub) this.setState({ ...s, sub: { name, props } });
    else if (s.main) this.setState({ main: { name, props }, sub: null });
    else return false;
    return true;
  }

  /** Closes the top modal (the sub-modal first). */
  close(): void {
    const s = this.snapshot;
    if (s.sub) this.setState({ ...s, sub: null });
    else if (s.main) this.setState({ main: null, sub: null });
  }

  /** Closes modals until at most `depth` stay open. */
  closeTo(depth: number): void {
    while (this.depth > Math.max(0, depth)) this.close();
  }
}
