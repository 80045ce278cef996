/**
 * Who watches how (issue 44, docs/spectators.md). A spectator watches the station's LL-HLS: a
 * segmented HTTP stream that any cache in front serves to any number of them, about two seconds
 * behind. A player who is playing, or whose turn is this close, watches in real time (the spec's rtc
 * or jpg mode, their choice), and moves back to HLS when their play is over and they hold no place
 * near the front.
 */
export type WatchRole = 'spectator' | 'player';

/** A place in line at or before this watches live: 1 is next (or holding the turn), 2 is after them. */
export const LIVE_FROM_PLACE = 2;

export function watchRole(player: { readonly playing: boolean; readonly place: number | null }): WatchRole {
  return player.playing || (player.place !== null && player.place >= 1 && player.place <= LIVE_FROM_PLACE)
    ? 'player'
    : 'spectator';
}
