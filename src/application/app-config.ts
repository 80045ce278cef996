import type { BuildTarget } from '../domain';

/** Configuration the use-cases read (the adapters get theirs in src/main). */
export interface AppConfig {
  readonly target: BuildTarget;
  /** The shop the catalogue is read for (spec §3 app state "shop id"). */
  readonly shopId: number;
  /** Base address of the top page (spec §3 app state); '' means this origin. */
  readonly topPageBaseUrl: string;
  /** Where a yahoo build sends the player when the session is cancelled [R4.6-2]. */
  readonly yahooTopUrl: string;
}
