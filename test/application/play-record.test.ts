import { afterEach, describe, expect, it } from 'vitest';
import { HISTORY_CLIP_POLL_LIMIT, HISTORY_CLIP_POLL_MS, PlayRecord, type PlayHistoryPage } from '../../src/application';
import type { AuthIdentity, PlayLogEntry } from '../../src/domain';
import { aPlayLogEntry, FakeSession, ManualClock, ScriptedPlay } from '../../src/testing';

const aPlay = (play_id: number, status: 'recording' | 'ready' | null): PlayLogEntry =>
  aPlayLogEntry({
    play_id,
    clip:
      status === null
        ? null
        : { clip_id: 'AbCdEfGhIjKlMnOpQrStUv', status, shared: 0, kept: 0, expires_at: '2026-12-29T01:00:00.000Z' },
  });
const page = (...list: PlayLogEntry[]): { value: PlayHistoryPage } => ({ value: { list, page: 1, hasMore: false } });
const player = { user_id: 7, token: 'token' } as unknown as AuthIdentity;

/** Lets the read's promise settle (PlayRecord takes each answer through firstValueFrom). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

let record: PlayRecord | null = null;
afterEach(() => record?.dispose());

describe("PlayRecord: the play screen's log follows a video being written [R11-5]", () => {
  it('[R11-5] a page with a clip still recording is read again until the clip is ready, then no more', async () => {
    const play = new ScriptedPlay();
    const clock = new ManualClock(Date.parse('2026-11-29T01:00:45Z'));
    record = new PlayRecord(play.port, new FakeSession(player), clock);
    play.answer('history', page(aPlay(2, 'recording'), aPlay(1, 'ready')), page(aPlay(2, 'ready'), aPlay(1, 'ready')));
    record.start(12);
    record.loadHistory();
    await settled();
    expect(record.snapshot.history?.list[0]?.clip?.status).toBe('recording');
    clock.advance(HISTORY_CLIP_POLL_MS - 1);
    expect(play.callsOf('history')).toHaveLength(1);
    clock.advance(1);
    await settled();
    expect(play.callsOf('history')).toEqual([[1], [1]]);
    expect(record.snapshot.history?.list[0]?.clip?.status).toBe('ready');
    // Ready: nothing more is asked.
    clock.advance(HISTORY_CLIP_POLL_MS * 10);
    expect(play.callsOf('history')).toHaveLength(2);
    expect(clock.pendingTimers).toBe(0);
  });

  it('[R11-5] a clip that stays recording is asked for at most HISTORY_CLIP_POLL_LIMIT more times; disposing stops it; signed out it asks nothing', async () => {
    const play = new ScriptedPlay();
    const clock = new ManualClock(Date.parse('2026-11-29T01:00:45Z'));
    record = new PlayRecord(play.port, new FakeSession(player), clock);
    play.always('history', page(aPlay(2, 'recording')).value);
    record.start(12);
    record.loadHistory();
    for (let i = 0; i < HISTORY_CLIP_POLL_LIMIT + 5; i += 1) {
      await settled();
      clock.advance(HISTORY_CLIP_POLL_MS);
    }
    await settled();
    expect(play.callsOf('history')).toHaveLength(1 + HISTORY_CLIP_POLL_LIMIT);

    const second = new PlayRecord(play.port, new FakeSession(player), clock);
    second.start(12);
    second.loadHistory();
    await settled();
    second.dispose();
    clock.advance(HISTORY_CLIP_POLL_MS * 3);
    expect(play.callsOf('history')).toHaveLength(2 + HISTORY_CLIP_POLL_LIMIT);
    expect(clock.pendingTimers).toBe(0);

    const session = new FakeSession(player);
    const third = new PlayRecord(play.port, session, clock);
    third.start(12);
    third.loadHistory();
    await settled();
    session.signOut();
    clock.advance(HISTORY_CLIP_POLL_MS);
    expect(play.callsOf('history')).toHaveLength(3 + HISTORY_CLIP_POLL_LIMIT);
    third.dispose();
  });
});
