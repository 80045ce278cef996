import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIP_POLL_LIMIT, CLIP_POLL_MS, PlayClipViewer, SharedClip } from '../../src/application';
import type { PlayClip } from '../../src/domain';
import { ManualClock, ScriptedClips } from '../../src/testing';

const aClip = (overrides: Partial<PlayClip> = {}): PlayClip => ({
  clip_id: 'AbCdEfGhIjKlMnOpQrStUv',
  status: 'ready',
  shared: 0,
  kept: 0,
  expires_at: '2026-12-29T00:00:00.000Z',
  play_id: 41,
  station_id: 12,
  cameras: ['front', 'side'],
  duration_ms: 9_000,
  bytes: 1_200_000,
  created_at: '2026-11-29T00:00:00.000Z',
  urls: { front: '/api/clips/x/front.webm?e=1&k=2', side: '/api/clips/x/side.webm?e=1&k=2' },
  share_path: null,
  ...overrides,
});

const refusal = (code: number, info: string) => Object.assign(new Error(info), { code, info });

let viewer: PlayClipViewer | null = null;
afterEach(() => viewer?.dispose());

describe('PlayClipViewer: the player’s video of a play (scripted port, manual clock) [R11-5]', () => {
  it('[R11-5] a clip still being written is asked for again each second until it is ready; nothing more after', () => {
    const clips = new ScriptedClips();
    const clock = new ManualClock();
    clips.answer(
      'ofPlay',
      { value: aClip({ status: 'recording', urls: {} }) },
      { value: aClip({ status: 'recording', urls: {} }) },
    );
    clips.always('ofPlay', aClip());
    viewer = new PlayClipViewer(clips.port, clock);
    viewer.open(41);
    expect(viewer.snapshot).toMatchObject({ kind: 'clip', clip: { status: 'recording' } });
    clock.advance(CLIP_POLL_MS - 1);
    expect(clips.callsOf('ofPlay')).toHaveLength(1);
    clock.advance(1);
    clock.advance(CLIP_POLL_MS);
    expect(viewer.snapshot).toMatchObject({ kind: 'clip', clip: { status: 'ready' } });
    clock.advance(CLIP_POLL_MS * 10);
    expect(clips.callsOf('ofPlay')).toEqual([[41], [41], [41]]);
  });

  it('[R11-5] it gives up asking after 30 seconds of recording; closing the modal stops it at once', () => {
    const clips = new ScriptedClips().always('ofPlay', aClip({ status: 'recording', urls: {} }));
    const clock = new ManualClock();
    viewer = new PlayClipViewer(clips.port, clock);
    viewer.open(41);
    clock.advance(CLIP_POLL_MS * (CLIP_POLL_LIMIT + 10));
    expect(clips.callsOf('ofPlay')).toHaveLength(CLIP_POLL_LIMIT + 1);

    const other = new ScriptedClips().always('ofPlay', aClip({ status: 'recording', urls: {} }));
    const closing = new PlayClipViewer(other.port, clock);
    closing.open(41);
    closing.dispose();
    clock.advance(CLIP_POLL_MS * 5);
    expect(other.callsOf('ofPlay')).toHaveLength(1);
  });

  it('[R11-5] sharing and keeping answer the clip as it now is; while asked the value asked for shows; a refusal shows its Japanese text and leaves the clip as it was', () => {
    const keepAnswer = new Subject<PlayClip>();
    const clips = new ScriptedClips()
      .always('ofPlay', aClip())
      .answer('share', { value: aClip({ shared: 1, share_path: '/clip/AbCdEfGhIjKlMnOpQrStUv' }) })
      .answer('keep', { observable: keepAnswer });
    viewer = new PlayClipViewer(clips.port, new ManualClock());
    viewer.open(41);
    viewer.share(true);
    expect(viewer.snapshot).toMatchObject({
      kind: 'clip',
      clip: { shared: 1, share_path: '/clip/AbCdEfGhIjKlMnOpQrStUv' },
      busy: null,
    });
    viewer.keep(true);
    expect(viewer.snapshot).toMatchObject({ kind: 'clip', busy: { kind: 'keep', to: true }, error: null });
    viewer.share(false); // one change at a time
    keepAnswer.error(refusal(409, '保存できる動画は50本までです。'));
    expect(viewer.snapshot).toMatchObject({
      kind: 'clip',
      clip: { kept: 0 },
      busy: null,
      error: '保存できる動画は50本までです。',
    });
    expect(clips.callsOf('share')).toEqual([['AbCdEfGhIjKlMnOpQrStUv', true]]);
    expect(clips.callsOf('keep')).toEqual([['AbCdEfGhIjKlMnOpQrStUv', true]]);
  });

  it('[R11-5] a play without a clip the player may see (404) is "none"; another failure is its text', () => {
    const clips = new ScriptedClips().answer(
      'ofPlay',
      { error: refusal(404, '動画が見つかりません。') },
      { error: refusal(500, 'エラーが発生しました。') },
    );
    viewer = new PlayClipViewer(clips.port, new ManualClock());
    viewer.open(7);
    expect(viewer.snapshot).toEqual({ kind: 'none' });
    viewer.open(8);
    expect(viewer.snapshot).toEqual({ kind: 'error', message: 'エラーが発生しました。' });
  });
});

describe('SharedClip: a shared clip’s public page [R11-5]', () => {
  it('[R11-5] an id that cannot be a clip is not found without asking; an adopted server render is not asked again', async () => {
    const clips = new ScriptedClips();
    const page = new SharedClip(clips.port);
    page.open('../../etc/passwd');
    expect(page.snapshot).toEqual({ kind: 'notFound' });
    expect(clips.calls).toEqual([]);
    page.adopt({ clipId: 'AbCdEfGhIjKlMnOpQrStUv', state: { kind: 'notFound' } });
    page.open('AbCdEfGhIjKlMnOpQrStUv');
    expect(clips.calls).toEqual([]);
    clips.always('publicView', null);
    expect(await page.load('AbCdEfGhIjKlMnOpQrStUv')).toEqual({
      clipId: 'AbCdEfGhIjKlMnOpQrStUv',
      state: { kind: 'notFound' },
    });
    page.dispose();
  });
});
