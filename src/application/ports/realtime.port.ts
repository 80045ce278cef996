import type { Observable } from 'rxjs';
import type {
  ChatMessage,
  ControlAnswer,
  CraneButton,
  CraneCommand,
  PlayView,
  PushNotice,
  StationLiveState,
  WatchKind,
  WinnerAnnouncement,
} from '../../domain';

/** The real-time connection's states [R4.8-1]. */
export type RealtimeConnectionState = 'closed' | 'opening' | 'open' | 'closing';

/** What arrives on a channel (names of spec §7 R7-11; the wire is src/contract/realtime.ts). */
export type RealtimeEvent =
  | { readonly type: 'reserveChange'; readonly stationId: number }
  | { readonly type: 'playState'; readonly play: PlayView }
  | { readonly type: 'push'; readonly push: PushNotice }
  | { readonly type: 'craneReserveCancel'; readonly stationId: number; readonly reason: string }
  | { readonly type: 'playEnd'; readonly kujiId: number; readonly boxId: number }
  | { readonly type: 'kujiReserveChange'; readonly kujiId: number; readonly boxId: number }
  | { readonly type: 'maintenance'; readonly stationId: number; readonly stationStatus: string }
  | { readonly type: 'list'; readonly stations: readonly StationLiveState[] }
  | { readonly type: 'winner'; readonly announcement: WinnerAnnouncement }
  | { readonly type: 'chat'; readonly message: ChatMessage }
  /**
   * The server acknowledged joining the channel (after a subscribe, and again after each
   * reconnection): every push from now on arrives. Whatever happened before is read by a call.
   */
  | { readonly type: 'joined' };

/** The channels a client may join (the user channel only for its own user). */
export type RealtimeChannel =
  | { readonly kind: 'top' }
  | { readonly kind: 'configured' }
  | { readonly kind: 'station'; readonly stationId: number }
  | { readonly kind: 'kujiBox'; readonly kujiId: number; readonly boxId: number }
  | { readonly kind: 'user' };

/**
 * The real-time socket (spec §7, R7-10, R7-11, R4.8). `channel()` joins on subscribe and leaves on
 * unsubscribe, rejoining by itself after a reconnection; `control()` sends a button command and
 * emits the server's acknowledgement once. The connection carries the signed-in identity.
 */
export interface RealtimePort {
  readonly connection$: Observable<RealtimeConnectionState>;
  channel(channel: RealtimeChannel): Observable<RealtimeEvent>;
  control(command: {
    readonly playId: number;
    readonly button: CraneButton;
    readonly command: CraneCommand;
  }): Observable<ControlAnswer>;
  /**
   * Tells the server what this page shows of a station's cameras while subscribed (the consoles'
   * spectator counts, docs/spectators.md "Counting spectators"): one report per connection, the
   * latest subscription's, sent again after every reconnection and withdrawn on unsubscribe. It
   * never opens the connection by itself (the page's station channel does). Emits nothing.
   */
  watch(report: { readonly stationId: number; readonly kind: WatchKind }): Observable<never>;
}
