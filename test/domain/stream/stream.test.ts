import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_STREAM_STATE,
  luminanceFactor,
  luminanceFilter,
  stillImageRefreshMs,
  stillImageUrl,
  streamFeed,
  streamReducer,
  type StreamEvent,
  type StreamState,
  type WatchInfo,
} from '../../../src/domain';

const watch: WatchInfo = {
  webrtc_url: 'wss://media.example:443/signaling',
  webrtc_channel_front: 'st5-front',
  webrtc_channel_side: 'st5-side',
  motion_jpeg_front: '/api/stations/5/front.jpg',
  motion_jpeg_side: '/api/stations/5/side.jpg',
};

function run(events: readonly StreamEvent[], from: StreamState = INITIAL_STREAM_STATE) {
  let state = from;
  let effects: unknown[] = [];
  for (const e of events) {
    const t = streamReducer(state, e);
    state = t.state;
    effects = [...t.effects];
  }
  return { state, effects };
}

describe('stream reducer', () => {
  it('[R4.2-1] the state starts as jpg, not streaming, front view', () => {
    expect(INITIAL_STREAM_STATE).toEqual({
      type: 'jpg',
      isStreaming: false,
      isReloading: false,
      stoppedStream: false,
      isBrowsing: true,
      isSignalingError: false,
      view: 'front',
      feed: null,
      // Beyond the spec (issue 44): who watches; a spectator's feed with HLS plays that instead.
      role: 'player',
      spectating: false,
      hlsFailed: false,
    });
    expect(run([{ type: 'switchView', view: 'side' }]).state.view).toBe('side');
  });

  it('[R4.2-3] start builds the feed with default channel ids when absent', () => {
    expect(streamFeed({ ...watch, webrtc_channel_front: null, webrtc_channel_side: '' }).channels).toEqual({
      front: 'default_front_channel',
      side: 'default_side_channel',
    });
    expect(run([{ type: 'start', mode: 'jpg', watch }]).state.feed).toEqual({
      rtcUrl: watch.webrtc_url,
      channels: { front: 'st5-front', side: 'st5-side' },
      stillImages: { front: watch.motion_jpeg_front, side: watch.motion_jpeg_side },
      hls: null,
    });
  });

  it('[R4.2-4] [R4.2-5] start inserts two still images, starts their refresh, and sets streaming and reloading, not stopped', () => {
    const { state, effects } = run([{ type: 'start', mode: 'jpg', watch }]);
    expect(effects).toEqual([
      { type: 'insertStillImages', urls: { front: watch.motion_jpeg_front, side: watch.motion_jpeg_side } },
      { type: 'startImageRefresh', intervalMs: 90 },
    ]);
    expect(state).toMatchObject({ type: 'jpg', isStreaming: true, isReloading: true, stoppedStream: false });
    expect(run([{ type: 'start', mode: 'jpg', watch }, { type: 'frameLoaded' }]).state.isReloading).toBe(false);
  });

  it('[R4.2-6] rtc mode connects front and side receive-only, video only, VP8, no audio', () => {
    const { effects } = run([{ type: 'start', mode: 'rtc', watch }]);
    expect(effects.slice(2)).toEqual([
      {
        type: 'connectRtc',
        camera: 'front',
        url: watch.webrtc_url,
        channel: 'st5-front',
        role: 'recvonly',
        codec: 'VP8',
        video: true,
        audio: false,
      },
      {
        type: 'connectRtc',
        camera: 'side',
        url: watch.webrtc_url,
        channel: 'st5-side',
        role: 'recvonly',
        codec: 'VP8',
        video: true,
        audio: false,
      },
    ]);
  });

  it('[R4.2-2] start resets a previous stream first', () => {
    const { state, effects } = run([
      { type: 'start', mode: 'rtc', watch },
      { type: 'rtcFailed', camera: 'side' },
      { type: 'start', mode: 'rtc', watch },
    ]);
    expect(effects.slice(0, 5)).toEqual([
      { type: 'stopImageRefresh' },
      { type: 'disconnectAll' },
      { type: 'removeVideoElement', camera: 'front' },
      { type: 'removeVideoElement', camera: 'side' },
      { type: 'removeStillImages' },
    ]);
    expect(state).toMatchObject({ type: 'rtc', isSignalingError: false, isStreaming: true });
    expect(run([{ type: 'start', mode: 'jpg', watch }]).effects[0]).toEqual({
      type: 'insertStillImages',
      urls: { front: watch.motion_jpeg_front, side: watch.motion_jpeg_side },
    });
  });

  it('[R4.2-7] failure of either session disconnects both, falls back to jpg, flags the signaling error, removes videos and refreshes images', () => {
    for (const camera of ['front', 'side'] as const) {
      const { state, effects } = run([
        { type: 'start', mode: 'rtc', watch },
        { type: 'rtcFailed', camera },
      ]);
      expect(state).toMatchObject({ type: 'jpg', isSignalingError: true, isStreaming: true });
      expect(effects).toEqual([
        { type: 'disconnectAll' },
        { type: 'removeVideoElement', camera: 'front' },
        { type: 'removeVideoElement', camera: 'side' },
        { type: 'showStillImages' },
        { type: 'refreshImages' },
      ]);
    }
    // The other session's failure after the fallback does nothing more.
    expect(
      run([
        { type: 'start', mode: 'rtc', watch },
        { type: 'rtcFailed', camera: 'front' },
        { type: 'rtcFailed', camera: 'side' },
      ]).effects,
    ).toEqual([]);
  });

  it('[R4.2-8] rtc success hides the still images; in jpg mode they stay shown', () => {
    const rtc = run([
      { type: 'start', mode: 'rtc', watch },
      { type: 'rtcConnected', camera: 'front' },
    ]);
    expect(rtc.effects).toEqual([{ type: 'hideStillImage', camera: 'front' }]);
    expect(rtc.state.isReloading).toBe(false);
    expect(
      run([
        { type: 'start', mode: 'jpg', watch },
        { type: 'rtcConnected', camera: 'front' },
      ]).effects,
    ).toEqual([]);
    expect(
      run([{ type: 'start', mode: 'jpg', watch }]).effects.some(
        (e) => (e as { type: string }).type === 'hideStillImage',
      ),
    ).toBe(false);
  });

  it('[R4.2-9] stop: streaming and reloading false, stopped true; rtc paused and disconnected; frames refreshed once', () => {
    const rtc = run([{ type: 'start', mode: 'rtc', watch }, { type: 'stop' }]);
    expect(rtc.state).toMatchObject({ isStreaming: false, isReloading: false, stoppedStream: true });
    expect(rtc.effects).toEqual([
      { type: 'stopImageRefresh' },
      { type: 'pauseRtc' },
      { type: 'disconnectAll' },
      { type: 'refreshImages' },
    ]);
    const jpg = run([{ type: 'start', mode: 'jpg', watch }, { type: 'stop' }]);
    expect(jpg.effects).toEqual([{ type: 'stopImageRefresh' }, { type: 'refreshImages' }]);
    expect(run([{ type: 'start', mode: 'jpg', watch }, { type: 'stop' }, { type: 'stop' }]).effects).toEqual([]);
  });

  it("[R4.2-10] remote-track removal removes that camera's video element, and only that one; its still shows again", () => {
    for (const camera of ['front', 'side'] as const) {
      expect(
        run([
          { type: 'start', mode: 'rtc', watch },
          { type: 'trackRemoved', camera },
        ]).effects,
      ).toEqual([
        { type: 'removeVideoElement', camera },
        { type: 'showStillImage', camera },
      ]);
    }
  });

  it('[R4.2-1] any event sequence keeps the flags coherent', () => {
    const event = fc.oneof(
      fc.constantFrom<StreamEvent>(
        { type: 'stop' },
        { type: 'frameLoaded' },
        { type: 'start', mode: 'jpg', watch },
        { type: 'start', mode: 'rtc', watch },
      ),
      fc
        .constantFrom('front' as const, 'side' as const)
        .chain((camera) =>
          fc.constantFrom<StreamEvent>(
            { type: 'rtcConnected', camera },
            { type: 'rtcFailed', camera },
            { type: 'trackRemoved', camera },
            { type: 'switchView', view: camera },
          ),
        ),
      fc.boolean().map((isBrowsing): StreamEvent => ({ type: 'browsingChanged', isBrowsing })),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const { state } = run(events);
        expect(state.isStreaming && state.stoppedStream).toBe(false);
        if (!state.isStreaming) expect(state.isReloading).toBe(false);
        if (state.isSignalingError) expect(state.type).toBe('jpg');
      }),
    );
  });
});

describe('luminance and still images', () => {
  it('[R9-9] [R3-2] the display filter uses value × 0.01, with 100 for absent values', () => {
    const f = luminanceFilter(
      { luminance_front: { brightness_front: 110, saturate_front: null, contrast_front: 90 }, luminance_side: {} },
      'front',
    );
    expect(f).toEqual({
      brightness: 1.1,
      saturate: 1,
      contrast: 0.9,
      css: 'brightness(1.1) saturate(1) contrast(0.9)',
    });
    expect(luminanceFilter({ luminance_front: {}, luminance_side: { contrast_side: 150 } }, 'side').css).toBe(
      'brightness(1) saturate(1) contrast(1.5)',
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), (v) => {
        expect(luminanceFactor(v)).toBeCloseTo(v * 0.01, 12);
      }),
    );
    expect(luminanceFactor(undefined)).toBe(1);
    expect(luminanceFactor(Number.NaN)).toBe(1);
  });

  it('[R9-8] still images refresh every 90 ms while working and at rate 2 in the background', () => {
    expect(stillImageRefreshMs(true)).toBe(90);
    expect(stillImageRefreshMs(false)).toBe(500);
    const started = run([{ type: 'start', mode: 'jpg', watch }]);
    expect(streamReducer(started.state, { type: 'browsingChanged', isBrowsing: false }).effects).toEqual([
      { type: 'startImageRefresh', intervalMs: 500 },
    ]);
    expect(
      run([
        { type: 'browsingChanged', isBrowsing: false },
        { type: 'start', mode: 'jpg', watch },
      ]).effects[1],
    ).toEqual({ type: 'startImageRefresh', intervalMs: 500 });
  });

  it('adds a time-based cache-busting query to still-image addresses', () => {
    expect(stillImageUrl('/f.jpg', 1234)).toBe('/f.jpg?t=1234');
    expect(stillImageUrl('/f.jpg?s=1', 1234)).toBe('/f.jpg?s=1&t=1234');
  });
});
