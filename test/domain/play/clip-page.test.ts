import { describe, expect, it } from 'vitest';
import {
  clipDaysLeft,
  clipOffer,
  clipPageHead,
  clipShareUrl,
  firstClipCamera,
  isClipId,
  type PublicClip,
} from '../../../src/domain';

const shared: PublicClip = {
  clip_id: 'AbCdEfGhIjKlMnOpQrStUv',
  station_id: 12,
  station_name: 'KX-012',
  prize_name: 'ふわもこ ねこクッション',
  played_at: '2026-11-29T05:00:00.000Z',
  result: 'win',
  cameras: ['front', 'side'],
  duration_ms: 12_400,
  urls: { front: '/api/clips/AbCdEfGhIjKlMnOpQrStUv/front.webm', side: '/api/clips/AbCdEfGhIjKlMnOpQrStUv/side.webm' },
  img_url: '/api/images/prize-cat.svg',
  page_url: 'https://onkure.example.jp/clip/AbCdEfGhIjKlMnOpQrStUv',
};

describe('a play video (issue 44) [R11-5]', () => {
  it('[R11-5] the clip page names the prize and the station in its title and link preview, with absolute addresses of a raster picture and the video, and nothing of the player', () => {
    const head = clipPageHead(shared);
    expect(head.title).toBe('「ふわもこ ねこクッション」ゲットの瞬間 | オンラインクレーンゲーム オンクレ');
    const tags = Object.fromEntries(head.meta.map((m) => [m.key, m.content]));
    expect(tags).toMatchObject({
      'og:type': 'video.other',
      'og:title': head.title,
      'og:url': shared.page_url,
      'og:image': 'https://onkure.example.jp/api/images/prize-cat.svg?w=1280&fm=jpg',
      'og:video': 'https://onkure.example.jp/api/clips/AbCdEfGhIjKlMnOpQrStUv/front.webm',
      'og:video:type': 'video/webm',
      'twitter:card': 'summary_large_image',
    });
    expect(tags['og:description']).toContain('KX-012');
    expect(tags['og:description']).toContain('12秒');
    expect(head.meta.filter((m) => m.attribute === 'name').map((m) => m.key)).toEqual(['description', 'twitter:card']);
  });

  it('[R11-5] a miss is a challenge, not a win; without the published address no relative address is offered as a preview', () => {
    const head = clipPageHead({ ...shared, result: 'miss', page_url: undefined, cameras: ['side'] });
    expect(head.title).toContain('チャレンジ');
    const keys = head.meta.map((m) => m.key);
    expect(keys).not.toContain('og:url');
    expect(keys).not.toContain('og:image');
    expect(keys).not.toContain('og:video');
    expect(head.meta.find((m) => m.key === 'twitter:card')?.content).toBe('summary');
  });

  it('[R11-5] days left round up and stop at 0; a kept clip has none; ready clips are watched, recording ones waited for, the rest gone', () => {
    const now = Date.parse('2026-11-29T00:00:00Z');
    expect(clipDaysLeft({ expires_at: '2026-12-29T00:00:00Z' }, now)).toBe(30);
    expect(clipDaysLeft({ expires_at: '2026-11-29T00:00:01Z' }, now)).toBe(1);
    expect(clipDaysLeft({ expires_at: '2026-11-28T00:00:00Z' }, now)).toBe(0);
    expect(clipDaysLeft({ expires_at: null }, now)).toBeNull();
    expect((['ready', 'recording', 'failed', 'removed'] as const).map((status) => clipOffer({ status }))).toEqual([
      'watch',
      'wait',
      'gone',
      'gone',
    ]);
  });

  it('[R11-5] clip ids are 22 base64url characters; the share link is the page on this origin; the front camera first', () => {
    expect(isClipId(shared.clip_id)).toBe(true);
    for (const bad of ['', 'x'.repeat(21), 'x'.repeat(23), '../../etc/passwd....', 'AbCdEfGhIjKlMnOpQrStU/'])
      expect(isClipId(bad)).toBe(false);
    expect(clipShareUrl({ share_path: '/clip/abc' }, 'https://onkure.example.jp')).toBe(
      'https://onkure.example.jp/clip/abc',
    );
    expect(clipShareUrl({ share_path: null }, 'https://onkure.example.jp')).toBeNull();
    expect([firstClipCamera(['side', 'front']), firstClipCamera(['side']), firstClipCamera([])]).toEqual([
      'front',
      'side',
      null,
    ]);
  });
});
