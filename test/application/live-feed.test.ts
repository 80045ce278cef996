import { describe, expect, it, vi } from 'vitest';
import { LiveFeed } from '../../src/application';
import { DEFAULT_FRONT_CHANNEL, DEFAULT_SIDE_CHANNEL, STILL_IMAGE_REFRESH_MS } from '../../src/domain';
import { aStationInfo, FakeHlsVideo, FakeRtcVideo, FakeStillFrames, ManualClock } from '../../src/testing';

function setUp() {
  const clock = new ManualClock(Date.parse('2026-11-23T03:00:00Z'));
  const stills = new FakeStillFrames();
  const video = new FakeRtcVideo();
  const spectate = new FakeHlsVideo();
  const feed = new LiveFeed(stills, video, clock, spectate);
  return { clock, stills, video, feed, spectate };
}
const info = aStationInfo({
  watch_info: {
    webrtc_url: '/signaling',
    webrtc_channel_front: null,
    webrtc_channel_side: 'st-side',
    motion_jpeg_front: '/cam/front.jpg',
    motion_jpeg_side: '/cam/side.jpg?k=abc',
  },
  luminance_front: { brightness_front: 120 },
  luminance_side: {},
});

describe('the live feed use-case (spec §4.2) over scripted stills and video sessions, on a manual clock', () => {
  it('[R4.2-4] [R4.2-5] [R7-9] [R9-8] jpg: both stills are fetched with the cache-busting query, then every 90 ms after each arrives', () => {
    const { clock, stills, feed } = setUp();
    feed.start(info, 'jpg');
    expect(feed.snapshot.stream).toMatchObject({ type: 'jpg', isStreaming: true, stoppedStream: false });
    expect(stills.fetched).toEqual([`/cam/front.jpg?t=${clock.now()}`, `/cam/side.jpg?k=abc&t=${clock.now()}`]);
    expect(feed.snapshot.cameras.front).toMatchObject({ still: 'blob:fake/1', stillVisible: true });
    expect(feed.snapshot.stream.isReloading).toBe(false); // the first picture arrived
    clock.advance(STILL_IMAGE_REFRESH_MS - 1);
    expect(stills.fetched).toHaveLength(2);
    clock.advance(1);
    expect(stills.fetched).toHaveLength(4);
    clock.advance(STILL_IMAGE_REFRESH_MS * 10);
    expect(stills.fetched).toHaveLength(24);
    feed.dispose();
  });

  it('[R9-8] in the background the stills refresh at rate 2 (every 500 ms), and at 90 ms again when the page comes back', () => {
    const { clock, stills, feed } = setUp();
    feed.start(info, 'jpg');
    feed.setBrowsing(false);
    const at = stills.fetched.length;
    clock.advance(499);
    expect(stills.fetched.length - at).toBeLessThanOrEqual(2); // the in-flight schedule of 90 ms ends once
    const before = stills.fetched.length;
    clock.advance(1000);
    expect(stills.fetched.length - before).toBe(4); // 2 cameras × 2 a second
    feed.setBrowsing(true);
    const back = stills.fetched.length;
    clock.advance(900);
    expect(stills.fetched.length - back).toBeGreaterThanOrEqual(18);
    feed.dispose();
  });

  it('never piles requests up: the next still is asked only after the previous one arrived', () => {
    const { clock, stills, feed } = setUp();
    stills.hold = true;
    feed.start(info, 'jpg');
    clock.advance(2000);
    expect(stills.fetched).toHaveLength(2);
    stills.deliver();
    clock.advance(STILL_IMAGE_REFRESH_MS);
    expect(stills.fetched).toHaveLength(4);
    feed.dispose();
  });

  it('[R7-9] leaks no picture: each still is released when the next replaces it, and all of them on dispose', () => {
    const { clock, stills, feed } = setUp();
    feed.start(info, 'jpg');
    clock.advance(STILL_IMAGE_REFRESH_MS * 50);
    expect(stills.live).toBe(2); // the two on screen
    feed.dispose();
    expect(stills.live).toBe(0);
    const fetched = stills.fetched.length;
    clock.advance(10_000);
    expect(stills.fetched).toHaveLength(fetched); // nothing runs after dispose
  });

  it('[R4.2-3] [R4.2-6] [R9-9] rtc: two receive-only sessions in parallel, the default channel where one is absent, and the luminance filter', () => {
    const { video, feed } = setUp();
    feed.start(info, 'rtc');
    expect(video.connects).toEqual([
      { camera: 'front', url: '/signaling', channel: DEFAULT_FRONT_CHANNEL },
      { camera: 'side', url: '/signaling', channel: 'st-side' },
    ]);
    expect(DEFAULT_SIDE_CHANNEL).toBe('default_side_channel');
    expect(feed.snapshot.cameras.front.filter.css).toBe('brightness(1.2) saturate(1) contrast(1)');
    feed.dispose();
  });

  it("[R4.2-8] rtc success shows the video and hides that camera's still; [R4.2-10] a removed track removes the video", () => {
    const { video, feed } = setUp();
    feed.start(info, 'rtc');
    const stream = { id: 'front-stream' };
    video.emit('front', { type: 'connected', stream });
    expect(feed.snapshot.cameras.front).toMatchObject({ video: stream, stillVisible: false });
    expect(feed.snapshot.cameras.side).toMatchObject({ video: null, stillVisible: true });
    video.emit('front', { type: 'trackRemoved' });
    expect(feed.snapshot.cameras.front.video).toBeNull();
    feed.dispose();
  });

  it("[R4.2-8] [R4.2-10] a playing video's camera fetches no hidden stills; when its track goes, its still shows and refreshes again", () => {
    const { video, feed, stills, clock } = setUp();
    feed.start(info, 'rtc');
    video.emit('front', { type: 'connected', stream: { id: 'f' } });
    video.emit('side', { type: 'connected', stream: { id: 's' } });
    const before = stills.fetched.length;
    clock.advance(STILL_IMAGE_REFRESH_MS * 10);
    expect(stills.fetched.length).toBe(before); // both videos play: no still is downloaded
    video.emit('side', { type: 'trackRemoved' });
    expect(feed.snapshot.cameras.side).toMatchObject({ video: null, stillVisible: true });
    expect(stills.fetched.slice(before)).toEqual([`/cam/side.jpg?k=abc&t=${clock.now()}`]); // at once
    clock.advance(STILL_IMAGE_REFRESH_MS * 5);
    const after = stills.fetched.slice(before);
    expect(after.filter((url) => url.startsWith('/cam/side.jpg'))).toHaveLength(6);
    expect(after.filter((url) => url.startsWith('/cam/front.jpg'))).toHaveLength(0); // front's video still plays
    feed.dispose();
  });

  it('[R4.2-7] [R8-10] a failure of either session disconnects both, falls back to jpg with the signaling-error flag and shows the stills', () => {
    const { video, feed, stills } = setUp();
    feed.start(info, 'rtc');
    video.emit('front', { type: 'connected', stream: { id: 'f' } });
    const fetched = stills.fetched.length;
    video.emit('side', { type: 'failed', reason: 'signaling failed' });
    expect(feed.snapshot.stream).toMatchObject({ type: 'jpg', isSignalingError: true, isStreaming: true });
    expect(video.connected).toEqual([]);
    expect(feed.snapshot.cameras.front).toMatchObject({ video: null, stillVisible: true });
    expect(stills.fetched.length).toBeGreaterThanOrEqual(fetched);
    feed.dispose();
  });

  it('[R4.2-9] stop: streaming and reloading false, stopped true, sessions disconnected, one last still, then no more fetches', () => {
    const { clock, video, feed, stills } = setUp();
    feed.start(info, 'rtc');
    feed.stop();
    expect(feed.snapshot.stream).toMatchObject({ isStreaming: false, isReloading: false, stoppedStream: true });
    expect(video.connected).toEqual([]);
    const fetched = stills.fetched.length;
    clock.advance(5000);
    expect(stills.fetched).toHaveLength(fetched);
    feed.dispose();
  });

  it('[R4.2-2] a new start resets the previous stream (sessions and stills) before it begins', () => {
    const { video, feed, stills } = setUp();
    feed.start(info, 'rtc');
    feed.start(info, 'jpg');
    expect(video.connected).toEqual([]);
    expect(feed.snapshot.stream.type).toBe('jpg');
    expect(stills.live).toBe(2);
    feed.dispose();
  });
});

describe('the live feed for spectators (issue 44): HLS, and the move to and from rtc, over scripted sessions', () => {
  const withHls = aStationInfo({
    watch_info: {
      ...info.watch_info,
      hls_front: '/api/stations/5/hls/front/index.m3u8',
      hls_side: '/api/stations/5/hls/side/index.m3u8',
    },
    luminance_front: {},
    luminance_side: {},
  });

  it("a spectator watches each camera's HLS: its source goes to the page, the still hides once it plays; becoming the player connects rtc under it, and the HLS ends once the page's rtc video plays", () => {
    const { feed, video, spectate } = setUp();
    feed.setRole('spectator');
    feed.start(withHls, 'rtc');
    expect(spectate.connects).toEqual([
      { camera: 'front', url: '/api/stations/5/hls/front/index.m3u8' },
      { camera: 'side', url: '/api/stations/5/hls/side/index.m3u8' },
    ]);
    expect(video.connects).toEqual([]);
    spectate.ready('front');
    const source = feed.snapshot.cameras.front.hls;
    expect(source).not.toBeNull();
    const detach = source!.attach('the page’s video element');
    expect(spectate.attached).toEqual(['the page’s video element']);
    expect(feed.snapshot.cameras.front.stillVisible).toBe(true);
    spectate.emit('front', { type: 'playing' });
    expect(feed.snapshot.cameras.front.stillVisible).toBe(false);
    expect(feed.snapshot.stream.spectating).toBe(true);

    feed.setRole('player');
    expect(video.connected).toEqual(['front', 'side']);
    expect(spectate.connected).toEqual(['front', 'side']);
    video.emit('front', { type: 'connected', stream: 'front stream' });
    expect(feed.snapshot.cameras.front).toMatchObject({ video: 'front stream', hls: source, stillVisible: false });
    expect(spectate.connected).toEqual(['front', 'side']);
    feed.rtcPlaying('front');
    expect(feed.snapshot.cameras.front.hls).toBeNull();
    expect(spectate.connected).toEqual(['side']);
    detach();
    expect(spectate.attached).toEqual([]);
    feed.dispose();
    expect(spectate.connected).toEqual([]);
    expect(video.connected).toEqual([]);
  });

  it("an HLS failure is logged and the spectator watches in the player's mode instead", () => {
    const { feed, video, spectate } = setUp();
    feed.setRole('spectator');
    feed.start(withHls, 'rtc');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    spectate.emit('side', { type: 'failed', reason: 'networkError: manifestLoadError' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('networkError: manifestLoadError'));
    warn.mockRestore();
    expect(spectate.connected).toEqual([]);
    expect(video.connected).toEqual(['front', 'side']);
    expect(feed.snapshot.stream).toMatchObject({ spectating: false, hlsFailed: true, type: 'rtc' });
    feed.dispose();
  });
});
