import { describe, expect, it } from 'vitest';
import {
  INITIAL_STREAM_STATE,
  LIVE_FROM_PLACE,
  streamFeed,
  streamReducer,
  watchRole,
  type StreamEffect,
  type StreamEvent,
  type StreamState,
  type WatchInfo,
} from '../../../src/domain';

const watch: WatchInfo = {
  webrtc_url: '/signaling?s=5',
  webrtc_channel_front: 'station-5-front',
  webrtc_channel_side: 'station-5-side',
  motion_jpeg_front: '/api/stations/5/camera/front.jpg',
  motion_jpeg_side: '/api/stations/5/camera/side.jpg',
  hls_front: '/api/stations/5/hls/front/index.m3u8',
  hls_side: '/api/stations/5/hls/side/index.m3u8',
};

function run(events: readonly StreamEvent[], from: StreamState = INITIAL_STREAM_STATE) {
  let state = from;
  let effects: readonly StreamEffect[] = [];
  for (const event of events) ({ state, effects } = streamReducer(state, event));
  return { state, effects };
}
const types = (effects: readonly StreamEffect[]) =>
  effects.map((e) => ('camera' in e ? `${e.type}:${e.camera}` : e.type));

describe('who watches how (issue 44): spectators on HLS, the player in real time', () => {
  it('a player playing, or first or second in line, watches live; everyone else spectates', () => {
    expect(watchRole({ playing: true, place: null })).toBe('player');
    expect(watchRole({ playing: false, place: 1 })).toBe('player');
    expect(watchRole({ playing: false, place: LIVE_FROM_PLACE })).toBe('player');
    expect(watchRole({ playing: false, place: LIVE_FROM_PLACE + 1 })).toBe('spectator');
    expect(watchRole({ playing: false, place: null })).toBe('spectator');
    expect(watchRole({ playing: false, place: 0 })).toBe('spectator');
  });

  it("station info's HLS addresses are the feed's; a feed without them has none (the spectator then watches in the player's mode)", () => {
    expect(streamFeed(watch).hls).toEqual({ front: watch.hls_front, side: watch.hls_side });
    const { hls_front: _f, hls_side: _s, ...withoutHls } = watch;
    expect(streamFeed(withoutHls).hls).toBeNull();
    const { state, effects } = run([{ type: 'start', mode: 'rtc', watch: withoutHls, role: 'spectator' }]);
    expect(state.spectating).toBe(false);
    expect(types(effects)).toContain('connectRtc:front');
  });

  it("a spectator's start plays both cameras' HLS, not rtc; each camera's still shows until its HLS plays", () => {
    const started = run([{ type: 'start', mode: 'rtc', watch, role: 'spectator' }]);
    expect(started.state).toMatchObject({ type: 'rtc', spectating: true, isReloading: true });
    expect(types(started.effects)).toEqual([
      'insertStillImages',
      'startImageRefresh',
      'connectHls:front',
      'connectHls:side',
    ]);
    expect(started.effects.find((e) => e.type === 'connectHls')).toEqual({
      type: 'connectHls',
      camera: 'front',
      url: watch.hls_front,
    });
    const playing = streamReducer(started.state, { type: 'hlsPlaying', camera: 'front' });
    expect(playing.state.isReloading).toBe(false);
    expect(types(playing.effects)).toEqual(['hideStillImage:front', 'disconnectRtc:front', 'removeVideoElement:front']);
  });

  it('becoming the player moves to rtc without a gap: rtc connects under the HLS, and each camera’s HLS ends only once its rtc video presents a picture', () => {
    const watching = run([
      { type: 'start', mode: 'rtc', watch, role: 'spectator' },
      { type: 'hlsPlaying', camera: 'front' },
      { type: 'hlsPlaying', camera: 'side' },
    ]).state;
    const promoted = streamReducer(watching, { type: 'setRole', role: 'player' });
    expect(promoted.state).toMatchObject({ spectating: false, role: 'player' });
    expect(types(promoted.effects)).toEqual(['connectRtc:front', 'connectRtc:side']);
    const front = streamReducer(promoted.state, { type: 'rtcConnected', camera: 'front' });
    expect(types(front.effects)).toEqual(['hideStillImage:front']);
    // The side camera is out of view: its HLS ends as soon as its rtc session connects.
    const side = streamReducer(front.state, { type: 'rtcConnected', camera: 'side' });
    expect(types(side.effects)).toEqual(['hideStillImage:side', 'disconnectHls:side']);
    // Connected is not yet shown: the HLS ends when the rtc video presents its first picture.
    const shows = streamReducer(front.state, { type: 'rtcPlaying', camera: 'front' });
    expect(types(shows.effects)).toEqual(['disconnectHls:front']);
    // A feed without HLS has none to end.
    expect(
      run([
        { type: 'start', mode: 'rtc', watch: { ...watch, hls_front: '' } },
        { type: 'rtcPlaying', camera: 'front' },
      ]).effects,
    ).toEqual([]);
    // In jpg mode the stills show at once (there is no real-time video to wait for).
    const jpg = run([
      { type: 'start', mode: 'jpg', watch, role: 'spectator' },
      { type: 'setRole', role: 'player' },
    ]);
    expect(types(jpg.effects)).toEqual([
      'disconnectHls:front',
      'disconnectHls:side',
      'showStillImages',
      'refreshImages',
    ]);
  });

  it('becoming a spectator again moves back to HLS the same way: the rtc session ends once the HLS shows', () => {
    const live = run([
      { type: 'start', mode: 'rtc', watch, role: 'player' },
      { type: 'rtcConnected', camera: 'front' },
    ]).state;
    const demoted = streamReducer(live, { type: 'setRole', role: 'spectator' });
    // The side camera, out of view, leaves rtc at once (its still shows until its HLS plays).
    expect(types(demoted.effects)).toEqual([
      'connectHls:front',
      'connectHls:side',
      'disconnectRtc:side',
      'removeVideoElement:side',
      'showStillImage:side',
    ]);
    const shows = streamReducer(demoted.state, { type: 'hlsPlaying', camera: 'front' });
    expect(types(shows.effects)).toEqual(['hideStillImage:front', 'disconnectRtc:front', 'removeVideoElement:front']);
    // An rtc session that connects late, after the move, is ended rather than shown.
    const late = streamReducer(shows.state, { type: 'rtcConnected', camera: 'side' });
    expect(types(late.effects)).toEqual(['disconnectRtc:side', 'removeVideoElement:side']);
  });

  it("an HLS failure falls back to the player's mode for the rest of the stream: a later role change stays there", () => {
    const failed = run([
      { type: 'start', mode: 'rtc', watch, role: 'spectator' },
      { type: 'hlsFailed', camera: 'side' },
    ]);
    expect(failed.state).toMatchObject({ spectating: false, hlsFailed: true });
    expect(types(failed.effects)).toEqual([
      'disconnectHls:front',
      'disconnectHls:side',
      'showStillImages',
      'refreshImages',
      'connectRtc:front',
      'connectRtc:side',
    ]);
    const again = run(
      [
        { type: 'setRole', role: 'player' },
        { type: 'setRole', role: 'spectator' },
      ],
      failed.state,
    );
    expect(again.effects).toEqual([]);
    expect(again.state.spectating).toBe(false);
    // A new start tries HLS again.
    expect(run([{ type: 'start', mode: 'rtc', watch }], again.state).state.spectating).toBe(true);
  });

  it('a role told before the stream starts is kept for it; stopping a spectator ends the HLS', () => {
    const told = run([{ type: 'setRole', role: 'spectator' }]).state;
    expect(told).toMatchObject({ role: 'spectator', isStreaming: false });
    const started = streamReducer(told, { type: 'start', mode: 'jpg', watch });
    expect(started.state.spectating).toBe(true);
    const stopped = streamReducer(started.state, { type: 'stop' });
    expect(types(stopped.effects)).toEqual(['stopImageRefresh', 'pauseRtc', 'disconnectAll', 'refreshImages']);
  });
});
