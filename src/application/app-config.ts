import type { BuildTarget, StreamType } from '../domain';

/** Configuration the use-cases read (the adapters get theirs in src/main). */
export interface AppConfig {
  readonly target: BuildTarget;
  /** The shop the catalogue is read for (spec §3 app state "shop id"). */
  readonly shopId: number;
  /** Base address of the top page (spec §3 app state); '' means this origin. */
  readonly topPageBaseUrl: string;
  /** Where a yahoo build sends the player when the session is cancelled [R4.6-2]. */
  readonly yahooTopUrl: string;
  /** The live feed's mode on the play screen: jpg stills or rtc video (default jpg, spec §4.2). */
  readonly feedMode: StreamType;
  /** The operating company's site, opened from the footer logo after the reserve/warning notice [R2.5-3]. */
  readonly corporateUrl: string;
  /** The analytics measurement ids: the main one and the separate virtual-crane one [R7-12]. */
  readonly analyticsIds: { readonly main: string; readonly virtualCrane: string };
}
