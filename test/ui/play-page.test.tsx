/** @vitest-environment jsdom */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TOKENS, type ModalStack } from '../../src/application';
import { OnkureApp } from '../../src/ui';
import {
  aMachineView,
  anAssistGauge,
  anIdentity,
  aPlayView,
  aPrizeItem,
  aStationInfo,
  aStationReserveInfo,
  FakeRealtime,
  FakeRtcVideo,
  FakeSession,
  FakeStillFrames,
  ManualClock,
  RecordingAnalytics,
  RecordingNotifications,
  ScriptedAccount,
  ScriptedPlay,
  ScriptedPrizeCatalog,
  ScriptedReservation,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

afterEach(cleanup);

const STATION = 7;

function setUp() {
  const catalog = new ScriptedPrizeCatalog().always('lookUpPrizes', {
    prize: [aPrizeItem({ station_id: STATION, prize_name: 'もちもちうさぎ ミルク BIGぬいぐるみ', play_price: 200 })],
    prize_fes: [],
    prize_ticket: [],
  } as never);
  const plays = new ScriptedPlay()
    .always('stationInfo', { kind: 'info', info: aStationInfo() })
    .always('gauge', anAssistGauge({ misses: 3, level: 1, strength_bonus: 0.06, misses_to_next_level: 1, fill: 0.3 }));
  plays.always('current', null);
  const reservations = new ScriptedReservation().always('visit', {
    kind: 'watching',
    info: aStationReserveInfo({
      station_id: STATION,
      visit_count: 12,
      reserve_count: 2,
      reserve_status: null,
      reserve_num: 0,
    }),
  });
  const realtime = new FakeRealtime();
  const video = new FakeRtcVideo();
  const stills = new FakeStillFrames();
  const account = new ScriptedAccount();
  const clock = new ManualClock(Date.parse('2026-11-23T03:00:00Z'));
  const analytics = new RecordingAnalytics();
  const container = createTestContainer(
    [TOKENS.PrizeCatalogPort, catalog.port],
    [TOKENS.PlayPort, plays.port],
    [TOKENS.ReservationPort, reservations.port],
    [TOKENS.RealtimePort, realtime],
    [TOKENS.RtcVideoPort, video],
    [TOKENS.StillFramePort, stills],
    [TOKENS.AccountPort, account.port],
    [TOKENS.ClockPort, clock],
    [TOKENS.SessionPort, new FakeSession(anIdentity({ user_id: 42 }))],
    [TOKENS.NotificationPort, new RecordingNotifications()],
    [TOKENS.AnalyticsPort, analytics],
  );
  render(<OnkureApp container={container} initialPath={`/game/${STATION}`} />);
  return { catalog, plays, reservations, realtime, video, stills, account, clock, container, analytics };
}

/** Presses reserve and is first in line: the turn is offered at once (15 s to confirm). */
async function takeTheLine(reservations: ScriptedReservation): Promise<void> {
  reservations.answer('reserve', {
    value: {
      kind: 'reserved',
      info: aStationReserveInfo({
        station_id: STATION,
        reserve_status: 'playTransition',
        reserve_num: 1,
        reserve_time: 15,
      }),
      play: {} as never,
    },
  });
  await act(async () => {
    fireEvent.click(screen.getByTestId('reserve'));
  });
}

describe('the play screen over scripted ports', () => {
  it('[R1-3] shows the station, its viewers, both cameras with a switch, the sound and hide-character options, and the assist gauge with its published step', async () => {
    setUp();
    expect(await screen.findByRole('heading', { level: 1, name: 'もちもちうさぎ ミルク BIGぬいぐるみ' })).toBeTruthy();
    expect((await screen.findByTestId('viewers')).textContent).toBe('12人が視聴中');
    const still = (await screen.findAllByRole('img', { name: '正面カメラの映像' }))[0]!;
    expect(still.getAttribute('src')).toMatch(/^blob:fake\//);
    expect((await screen.findByTestId('gauge')).textContent).toContain('アームパワー +6%・あと1回ミスでレベルアップ');
    expect(screen.getByTestId('reserve').textContent).toBe('予約する（200 TC）');
    expect(screen.getAllByRole('img', { name: '側面カメラの映像', hidden: true })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: '側面' }));
    expect(screen.getByTestId('camera').getAttribute('data-camera')).toBe('side');
    expect(screen.getByRole('checkbox', { name: 'サウンド' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'キャラクター非表示' })).toBeTruthy();
  });

  it('[R9-10] [R4.2-8] in live-video mode a connected camera shows its video at 75% height rotated 90 degrees, muted, instead of the still', async () => {
    const { video } = setUp();
    await screen.findByTestId('gauge');
    fireEvent.click(screen.getByTestId('mode-rtc'));
    expect(video.connects.map((c) => c.camera)).toEqual(['front', 'side']);
    act(() => video.emit('front', { type: 'connected', stream: {} }));
    const element = document.querySelector('video')!;
    expect(element.style.height).toBe('75%');
    expect(element.style.transform).toBe('rotate(90deg)');
    expect(element.muted).toBe(true);
    expect(screen.getByTestId('feed-mode').textContent).toBe('ライブ映像モード');
    expect(screen.queryAllByRole('img', { name: '正面カメラの映像' })).toHaveLength(0);
  });

  it('the buttons are held with the keyboard: → and ↑ send press on key down and release on key up, once each', async () => {
    const { realtime, reservations, plays, container } = setUp();
    await screen.findByTestId('gauge');
    await takeTheLine(reservations);
    expect(screen.getByTestId('your-turn').textContent).toContain('15秒以内にプレイを開始してください');
    const mine = aPlayView({ play_id: 5, station_id: STATION, phase: 'playing', machine: aMachineView({ tick: 3 }) });
    plays.answer('confirm', { value: { ...mine, phase: 'resetting' } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm'));
    });
    act(() => realtime.emit({ kind: 'station', stationId: STATION }, { type: 'playState', play: mine }));
    expect(screen.getByTestId('button-right')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('button-back')).toHaveProperty('disabled', true);
    realtime.controls.always('control', {
      ok: true,
      tick: 4,
      machine: aMachineView({ tick: 4, phase: 'movingRight', button: 'right', button_ms_left: null }),
    });
    act(() => {
      fireEvent.keyDown(window, { key: 'ArrowRight' });
      fireEvent.keyDown(window, { key: 'ArrowRight', repeat: true });
    });
    act(() => {
      fireEvent.keyUp(window, { key: 'ArrowRight' });
    });
    expect(realtime.controls.callsOf('control')).toEqual([
      [{ playId: 5, button: 'right', command: 'press' }],
      [{ playId: 5, button: 'right', command: 'release' }],
    ]);
    // With a modal open the arrow keys belong to the modal, not the crane.
    act(() => {
      container.get<ModalStack>(TOKENS.ModalStack).open('config');
    });
    act(() => {
      fireEvent.keyDown(window, { key: 'ArrowUp' });
      fireEvent.keyDown(window, { key: 'ArrowRight' });
    });
    expect(realtime.controls.callsOf('control')).toHaveLength(2);
  });

  it('[R4.3-7] the countdowns tick in the page on the clock: the confirm window, then the button window of the play', async () => {
    const { reservations, plays, realtime, clock } = setUp();
    await screen.findByTestId('gauge');
    await takeTheLine(reservations);
    expect(screen.getByTestId('your-turn').textContent).toContain('15秒以内にプレイを開始してください');
    act(() => clock.advance(1000));
    expect(screen.getByTestId('your-turn').textContent).toContain('14秒以内にプレイを開始してください');
    act(() => clock.advance(1500));
    expect(screen.getByTestId('your-turn').textContent).toContain('13秒以内にプレイを開始してください');
    const mine = aPlayView({
      play_id: 5,
      station_id: STATION,
      phase: 'playing',
      machine: aMachineView({ tick: 3, button: 'right', button_ms_left: 15_000 }),
    });
    plays.answer('confirm', { value: mine });
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm'));
    });
    expect(screen.getByTestId('machine-status').textContent).toBe('あと15秒で自動で動きます');
    act(() => clock.advance(3000));
    expect(screen.getByTestId('machine-status').textContent).toBe('あと12秒で自動で動きます');
    // New data from the server restarts the count from its own numbers.
    act(() =>
      realtime.emit(
        { kind: 'station', stationId: STATION },
        {
          type: 'playState',
          play: { ...mine, machine: aMachineView({ tick: 9, button: 'right', button_ms_left: 5_000 }) },
        },
      ),
    );
    expect(screen.getByTestId('machine-status').textContent).toBe('あと5秒で自動で動きます');
  });

  it('[R11-9] after enough misses in a row the result offers a staff assist; asked, the turn is held with the time left and no continue; the staff’s answer shows and the continue window runs again', async () => {
    const { reservations, plays, realtime, clock, analytics } = setUp();
    await screen.findByTestId('gauge');
    await takeTheLine(reservations);
    const missed = aPlayView({
      play_id: 5,
      station_id: STATION,
      phase: 'result',
      result: 'miss',
      window_ms_left: 10_000,
      staff_assist: { needed: 10, misses: 10, state: 'available', ms_left: null, outcome: null },
    });
    plays.answer('confirm', { value: { ...missed, phase: 'resetting', result: null, staff_assist: null } });
    await act(async () => {
      fireEvent.click(screen.getByTestId('confirm'));
    });
    act(() => realtime.emit({ kind: 'station', stationId: STATION }, { type: 'playState', play: missed }));
    const box = () => screen.getByTestId('staff-assist');
    expect(box().dataset.state).toBe('available');
    expect(box().textContent).toContain('10回続けて取れませんでした');
    const held = {
      ...missed,
      window_ms_left: 300_000,
      staff_assist: { ...missed.staff_assist!, state: 'asked' as const, ms_left: 300_000 },
    };
    plays.answer('askAssist', { value: held });
    await act(async () => {
      fireEvent.click(screen.getByTestId('staff-assist-ask'));
    });
    expect(plays.callsOf('askAssist')).toEqual([[5]]);
    expect(analytics.sent.find((e) => e.name === 'staff_assist_request')?.params).toMatchObject({ misses: 10 });
    expect(box().dataset.state).toBe('asked');
    expect(box().textContent).toContain('最長あと5分00秒');
    expect(screen.getByTestId('continue')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('result').textContent).not.toContain('秒以内なら続けてプレイできます');
    act(() => clock.advance(61_000));
    expect(box().textContent).toContain('最長あと3分59秒');
    // The staff are done: the count starts again, the continue window runs.
    act(() =>
      realtime.emit(
        { kind: 'station', stationId: STATION },
        {
          type: 'playState',
          play: {
            ...missed,
            window_ms_left: 10_000,
            staff_assist: { needed: 10, misses: 0, state: 'counting', ms_left: null, outcome: 'done' },
          },
        },
      ),
    );
    expect(box().dataset.outcome).toBe('done');
    expect(box().textContent).toContain('スタッフが景品の位置を直しました');
    expect(box().textContent).toContain('（いま0回）');
    expect(screen.getByTestId('continue')).toHaveProperty('disabled', false);
    expect(screen.getByTestId('result').textContent).toContain('10秒以内なら続けてプレイできます');
  });

  it('[R2.5-6] a push shows in the page as a toast and goes by itself after 3.5 s on the clock', async () => {
    const { realtime, clock } = setUp();
    await screen.findByTestId('gauge');
    act(() =>
      realtime.emit(
        { kind: 'user' },
        { type: 'push', push: { kind: 'notice', title: 'お知らせ', message: '景品を獲得しました' } },
      ),
    );
    expect(screen.getByTestId('notice').textContent).toBe('お知らせ景品を獲得しました');
    act(() => clock.advance(3499));
    expect(screen.getByTestId('notice')).toBeTruthy();
    act(() => clock.advance(1));
    expect(screen.queryByTestId('notice')).toBeNull();
  });

  it('[R2.5-1] [R2.5-2] a refusal is an alert dialog of the modal registry: focus inside, Escape dismisses it for good; with two modals open it waits for a free place', async () => {
    const { reservations, container } = setUp();
    await screen.findByTestId('gauge');
    const refusal = () =>
      reservations.answer('reserve', {
        error: Object.assign(new Error('402'), { info: 'TCが不足しています（必要: 200、保有: 0）。' }),
      });
    refusal();
    await act(async () => {
      fireEvent.click(screen.getByTestId('reserve'));
    });
    expect((await screen.findByTestId('dialog')).textContent).toContain('TCが不足しています');
    const dialog = screen.getByRole('alertdialog', { name: /TCが不足しています/ });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('dialog')).toBeNull());
    await act(async () => {
      await Promise.resolve();
    });
    expect(screen.queryByRole('alertdialog')).toBeNull(); // dismissed: the use-case cleared it, nothing reopens
    // Two modals open: the next alert waits (never a third), and shows once one closes [R2.5-1].
    const modals = container.get<ModalStack>(TOKENS.ModalStack);
    act(() => {
      modals.open('config');
      modals.open('faq');
    });
    refusal();
    await act(async () => {
      fireEvent.click(screen.getByTestId('reserve'));
    });
    expect(modals.depth).toBe(2);
    expect(screen.queryByTestId('dialog')).toBeNull();
    act(() => modals.close());
    expect((await screen.findByTestId('dialog')).textContent).toContain('TCが不足しています');
    expect(modals.snapshot.sub?.name).toBe('alert');
  });

  it('[R5-1] the sound and hide-character switches are sent as 1/0 settings', async () => {
    const { account } = setUp();
    await screen.findByTestId('gauge');
    account.answer('setVolume', { value: 0 as never });
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'サウンド' }));
    });
    expect(account.callsOf('setVolume')).toEqual([[false]]);
    expect((screen.getByRole('checkbox', { name: 'サウンド' }) as HTMLInputElement).checked).toBe(false);
  });

  it('[R11-6] [R11-9] the station page opens its settings history: each version with its time, reason and what changed in words, newest first; older versions a page at a time; the staff assists answered', async () => {
    const { plays, analytics } = setUp();
    await screen.findByTestId('gauge');
    const version = (
      n: number,
      applied: string,
      changes: { field: 'armStrength' | 'playPrice' | 'prizeName'; before: number | string; after: number | string }[],
    ) => ({
      version: n,
      applied_at: applied,
      reason: n === 3 ? ('campaign' as const) : ('adjustment' as const),
      changes,
    });
    // The page's first read (StrictMode mounts the dialog's use-case more than once: every read of
    // page 1 gets the same answer), then the second page when asked.
    plays.always('settingsHistory', {
      stationId: STATION,
      currentVersion: 3,
      list: [
        version(3, '2026-11-29T03:00:00.000Z', [
          { field: 'armStrength', before: 0.42, after: 0.9 },
          { field: 'playPrice', before: 100, after: 1200 },
        ]),
        version(2, '2026-11-28T03:00:00.000Z', [{ field: 'prizeName', before: 'くま', after: 'うさぎ' }]),
      ],
      page: 1,
      hasMore: true,
      assists: [
        { outcome: 'done', misses: 10, asked_at: '2026-11-29T01:58:00.000Z', ended_at: '2026-11-29T02:00:00.000Z' },
      ],
    });
    fireEvent.click(screen.getByRole('button', { name: '設定の変更履歴' }));
    const dialog = await screen.findByTestId('settings-history');
    await waitFor(() => expect(dialog.getAttribute('data-state')).toBe('loaded'));
    const items = () => screen.getAllByTestId('settings-version');
    expect(items().map((i) => i.textContent)).toEqual([
      '設定 第3版現在の設定2026/11/29 12:00アームパワー 42% → 90%1回の料金 100 TC → 1,200 TC理由：キャンペーン',
      '設定 第2版2026/11/28 12:00景品 くま → うさぎ理由：定期調整',
    ]);
    // [R11-9] The staff assists answered at the station, with no player named.
    expect(screen.getAllByTestId('settings-assist').map((i) => i.textContent)).toEqual([
      'スタッフが景品の位置を直しました2026/11/29 11:0010回続けて取れなかったあとの依頼',
    ]);
    // Opening it is counted (a designed analytics event).
    expect(analytics.sent.map((e) => e.name)).toContain('settings_history_view');
    plays.answer('settingsHistory', {
      value: {
        stationId: STATION,
        currentVersion: 3,
        list: [version(1, '2026-11-27T03:00:00.000Z', [{ field: 'armStrength', before: 0.5, after: 0.42 }])],
        page: 2,
        hasMore: false,
        assists: [],
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'さらに表示' }));
    await waitFor(() => expect(items()).toHaveLength(3));
    expect(items()[2]!.textContent).toBe('設定 第1版2026/11/27 12:00アームパワー 50% → 42%理由：定期調整');
    expect(screen.queryByRole('button', { name: 'さらに表示' })).toBeNull();
    const calls = plays.callsOf('settingsHistory');
    expect(calls.at(-1)).toEqual([STATION, 2]);
    expect(new Set(calls.slice(0, -1).map((c) => c.join()))).toEqual(new Set([`${STATION},1`]));
  });
});
