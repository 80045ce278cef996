import { describe, expect, it } from 'vitest';
import { defer, finalize, Subject } from 'rxjs';
import { TOKENS, type StationPlay } from '../../src/application';
import { DOMAIN_MESSAGES, RESERVE_POLLING_TIME, type PlayView } from '../../src/domain';
import {
  aMachineView,
  anAppConfig,
  anAssistGauge,
  anIdentity,
  aPlayView,
  aStation,
  aStationInfo,
  aStationReserveInfo,
  FakeRealtime,
  FakeHlsVideo,
  FakeRtcVideo,
  FakeSession,
  FakeStillFrames,
  ManualClock,
  RecordingAnalytics,
  RecordingNotifications,
  ScriptedAccount,
  ScriptedPlay,
  ScriptedPrizeCatalog,
  RecordingNavigator,
  ScriptedReservation,
} from '../../src/testing';
import { createTestContainer } from '../support/test-container';

const STATION = 7;
const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

/** The play screen from the app's container (its parts bound as in the app), over scripted ports. */
function setUp(options: { signedIn?: boolean } = {}) {
  const clock = new ManualClock(Date.parse('2026-11-23T03:00:00Z'));
  const stills = new FakeStillFrames();
  const reservations = new ScriptedReservation();
  const plays = new ScriptedPlay();
  const realtime = new FakeRealtime();
  const catalog = new ScriptedPrizeCatalog();
  const account = new ScriptedAccount();
  const session = new FakeSession(options.signedIn === false ? null : anIdentity({ user_id: 42 }));
  const notifications = new RecordingNotifications();
  const analytics = new RecordingAnalytics();
  catalog.always('lookUpPrizes', {
    prize: [aStation({ station_id: STATION, prize_name: 'もちもちうさぎ', station_type: 'normal' } as never)],
    prize_fes: [],
    prize_ticket: [],
  } as never);
  plays.always('stationInfo', { kind: 'info', info: aStationInfo() });
  plays.always('gauge', anAssistGauge());
  plays.answer('current', { value: null });
  reservations.answer('visit', {
    value: {
      kind: 'watching',
      info: aStationReserveInfo({ station_id: STATION, visit_count: 3, reserve_count: 0, reserve_status: null }),
    },
  });
  const navigator = new RecordingNavigator();
  const container = createTestContainer(
    [TOKENS.ClockPort, clock],
    [TOKENS.StillFramePort, stills],
    [TOKENS.RtcVideoPort, new FakeRtcVideo()],
    [TOKENS.HlsVideoPort, new FakeHlsVideo()],
    [TOKENS.ReservationPort, reservations.port],
    [TOKENS.PlayPort, plays.port],
    [TOKENS.RealtimePort, realtime],
    [TOKENS.PrizeCatalogPort, catalog.port],
    [TOKENS.AccountPort, account.port],
    [TOKENS.SessionPort, session],
    [TOKENS.NotificationPort, notifications],
    [TOKENS.AnalyticsPort, analytics],
    [TOKENS.AppConfig, anAppConfig()],
    [TOKENS.NavigatorPort, navigator],
  );
  const screen = container.get<StationPlay>(TOKENS.StationPlay);
  return {
    clock,
    stills,
    reservations,
    plays,
    realtime,
    catalog,
    account,
    session,
    notifications,
    analytics,
    screen,
    navigator,
    container,
  };
}

/** Everything the screen's parts show, as one object (the page reads each part). */
const view = (screen: StationPlay) => ({
  ...screen.line.snapshot,
  ...screen.play.snapshot,
  ...screen.record.snapshot,
  ...screen.settings.snapshot,
  ...screen.messages.snapshot,
  ...screen.lane.snapshot,
  ...screen.snapshot,
});

/** Joins the line and is first: the turn is offered at once (15 s to confirm). */
async function takeTheLine(screen: StationPlay, reservations: ScriptedReservation): Promise<void> {
  reservations.answer('reserve', {
    value: {
      kind: 'reserved',
      info: record({ reserve_status: 'playTransition', reserve_num: 1, reserve_time: 15 }),
      play: {} as never,
    },
  });
  await screen.line.reserve();
}

const record = (over: Parameters<typeof aStationReserveInfo>[0] = {}) =>
  aStationReserveInfo({ station_id: STATION, station_setting_id: 70, visit_count: 3, ...over });

describe('the play screen use-case over scripted ports, on a manual clock', () => {
  it('a server render loads the station with its cameras’ latest pictures; the page adopts them, shows them until the feed does, and asks for neither again', async () => {
    const server = setUp({ signedIn: false });
    const snapshot = await server.screen.loadStation(STATION);
    expect(snapshot.station?.station_id).toBe(STATION);
    const stills = aStationInfo().watch_info;
    expect(snapshot.info?.watch_info.motion_jpeg_front).toBe(stills.motion_jpeg_front);

    const { screen, plays, catalog, stills: frames } = setUp();
    screen.adopt(JSON.parse(JSON.stringify(snapshot)) as typeof snapshot);
    expect(screen.snapshot.posters).toEqual({ front: stills.motion_jpeg_front, side: stills.motion_jpeg_side });
    await screen.open(STATION);
    expect(plays.callsOf('stationInfo')).toHaveLength(0);
    expect(catalog.callsOf('lookUpPrizes')).toHaveLength(0);
    // The feed started from the adopted addresses.
    expect(frames.fetched.length).toBe(2);
    screen.dispose();
  });

  it('without a server render the page asks for the feed, and shows its cameras’ latest pictures until it shows', async () => {
    const { screen, plays } = setUp();
    expect(screen.snapshot.posters).toBeNull();
    await screen.open(STATION);
    expect(plays.callsOf('stationInfo')).toEqual([[STATION]]);
    expect(screen.snapshot.posters?.front).toBe(aStationInfo().watch_info.motion_jpeg_front);
    screen.dispose();
  });

  it('a station the server shows a guest nothing of (here one in maintenance) is sent without its feed, and the page asks for it', async () => {
    const server = setUp({ signedIn: false });
    server.plays.always('stationInfo', { kind: 'stationMaintenance', message: 'メンテナンス中' } as never);
    const snapshot = await server.screen.loadStation(STATION);
    expect(snapshot.info).toBeNull();
    const { screen, plays } = setUp();
    screen.adopt(snapshot);
    expect(screen.snapshot.posters).toBeNull();
    await screen.open(STATION);
    expect(plays.callsOf('stationInfo')).toEqual([[STATION]]);
    screen.dispose();
  });

  it('opening a station starts its live feed, watches it (viewer count), joins its channel and the user channel', async () => {
    const { screen, realtime, stills, reservations } = setUp();
    await screen.open(STATION);
    expect(view(screen)).toMatchObject({ stationId: STATION, signedIn: true, viewers: 3, reservation: null });
    expect(view(screen).station?.station_id).toBe(STATION);
    expect(stills.fetched.length).toBe(2);
    expect(reservations.callsOf('visit')).toEqual([[STATION]]);
    expect(realtime.joined.sort()).toEqual([`station:${STATION}`, 'user']);
    screen.dispose();
    expect(realtime.joined).toEqual([]);
    expect(stills.live).toBe(0);
  });

  it('tells the server what the page shows of the station (the consoles’ spectator counts): a guest’s HLS, then the mode picked, withdrawn when the screen goes', async () => {
    const { screen, realtime, plays } = setUp({ signedIn: false });
    const info = aStationInfo();
    plays.always('stationInfo', {
      kind: 'info',
      info: { ...info, watch_info: { ...info.watch_info, hls_front: '/hls/front.m3u8', hls_side: '/hls/side.m3u8' } },
    });
    await screen.open(STATION);
    await flush();
    expect(realtime.watchReports.at(-1)).toEqual({ stationId: STATION, kind: 'hls' });
    screen.switchFeedMode('jpg');
    await flush();
    expect(realtime.watchReports.at(-1)).toEqual({ stationId: STATION, kind: 'jpg' });
    screen.switchFeedMode('rtc');
    await flush();
    expect(realtime.watchReports.at(-1)).toEqual({ stationId: STATION, kind: 'rtc' });
    // One report stands at a time (each replaced the last).
    expect(
      realtime.watchReports.filter((r) => r !== null).length - realtime.watchReports.filter((r) => r === null).length,
    ).toBe(1);
    screen.dispose();
    expect(realtime.watchReports.at(-1)).toBeNull();
  });

  it('[R9-3] reserving shows the place and the estimated wait and polls get_reserve every RESERVE_POLLING_TIME; a reserve_change push fetches at once', async () => {
    const { screen, reservations, clock, realtime } = setUp();
    await screen.open(STATION);
    reservations.answer('reserve', {
      value: {
        kind: 'reserved',
        info: record({ reserve_status: 'reserve', reserve_num: 3, reserve_count: 3 }),
        play: {} as never,
      },
    });
    await screen.line.reserve();
    expect(view(screen).reservation).toMatchObject({ status: 'reserve', place: 3, estimatedWaitSeconds: 80 });
    reservations.answer('currentReservation', {
      value: { kind: 'reservation', info: record({ reserve_status: 'reserve', reserve_num: 2 }) },
    });
    clock.advance(RESERVE_POLLING_TIME * 1000 - 1);
    expect(reservations.callsOf('currentReservation')).toHaveLength(0);
    clock.advance(1);
    await flush();
    expect(reservations.callsOf('currentReservation')).toEqual([[{ stationId: STATION }]]);
    expect(view(screen).reservation?.place).toBe(2);
    reservations.answer('currentReservation', {
      value: {
        kind: 'reservation',
        info: record({ reserve_status: 'playTransition', reserve_num: 1, reserve_time: 15 }),
      },
    });
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'reserveChange', stationId: STATION });
    await flush();
    expect(view(screen).reservation).toMatchObject({ status: 'playTransition', place: 1, secondsLeft: 15 });
    screen.dispose();
  });

  it('[R4.3-3] a cancel on the poll stops polling, shows the cancelled popup and cancels the reservation', async () => {
    const { screen, reservations, clock } = setUp();
    await screen.open(STATION);
    reservations.answer('reserve', {
      value: { kind: 'reserved', info: record({ reserve_status: 'reserve', reserve_num: 2 }), play: {} as never },
    });
    await screen.line.reserve();
    reservations.answer('currentReservation', {
      value: { kind: 'reservation', info: record({ reserve_status: 'cancel' }) },
    });
    reservations.always('cancelReservation', { play_reserve_id: 1, station_setting_id: 70, reserve_status: 'cancel' });
    clock.advance(RESERVE_POLLING_TIME * 1000);
    await flush();
    expect(view(screen).alert).toEqual({
      kind: 'reservedStationCancelled',
      message: DOMAIN_MESSAGES.reservedStationCancelled,
    });
    expect(view(screen).reservation).toBeNull();
    expect(reservations.callsOf('cancelReservation')).toEqual([[{ stationSettingId: 70, shopId: 1 }]]);
    clock.advance(RESERVE_POLLING_TIME * 5000);
    await flush();
    expect(reservations.callsOf('currentReservation')).toHaveLength(1); // polling stopped
    screen.dispose();
  });

  it('[R4.3-5] [R4.3-6] maintenance on the reserved station (531 on the poll) stops polling, alerts and cancels; the station shows maintenance', async () => {
    const { screen, reservations, clock } = setUp();
    await screen.open(STATION);
    reservations.answer('reserve', {
      value: { kind: 'reserved', info: record({ reserve_status: 'reserve', reserve_num: 2 }), play: {} as never },
    });
    await screen.line.reserve();
    reservations.answer('currentReservation', {
      value: { kind: 'stationMaintenance', stationId: STATION, message: 'このステーションは現在メンテナンス中です。' },
    });
    reservations.always('cancelReservation', { play_reserve_id: 1, station_setting_id: 70, reserve_status: 'cancel' });
    clock.advance(RESERVE_POLLING_TIME * 1000);
    await flush();
    expect(view(screen).alert).toEqual({
      kind: 'reservedStationMaintenance',
      message: DOMAIN_MESSAGES.reservedStationMaintenance,
    });
    expect(view(screen).station?.station_status).toBe('maintenance');
    expect(reservations.callsOf('cancelReservation')).toHaveLength(1);
    screen.dispose();
  });

  it('a guest who presses reserve is asked to sign in, and nothing is sent', async () => {
    const { screen, reservations } = setUp({ signedIn: false });
    await screen.open(STATION);
    await screen.line.reserve();
    expect(view(screen).alert).toEqual({ kind: 'signIn', message: 'プレイするにはログインしてください。' });
    expect(reservations.calls).toEqual([]);
    screen.dispose();
  });

  it('[R8-2] a VIP-only station shows the 569 popup instead of the feed', async () => {
    const { screen, plays } = setUp();
    plays.answer('stationInfo', {
      value: {
        kind: 'vipRefused',
        outcome: {
          code: 569,
          title: DOMAIN_MESSAGES.vipOnlyTitle,
          text: DOMAIN_MESSAGES.vipOnlyText,
          button: { label: 'VIP対象になる', action: 'becomeVip' },
          then: 'stay',
        },
      },
    });
    await screen.open(STATION);
    expect(view(screen).popup).toMatchObject({
      code: 569,
      title: 'こちらのステーションの閲覧・プレイはVIP対象のお客様限定です。',
    });
    screen.dispose();
  });

  it('[R8-3] [R8-4] the VIP refusals at reserve show their popups; closing 571 returns to the station list, 570 stays', async () => {
    const { screen, reservations, navigator } = setUp();
    await screen.open(STATION);
    reservations.answer('reserve', {
      value: {
        kind: 'vipRefused',
        outcome: {
          code: 570,
          title: DOMAIN_MESSAGES.vipWeeklyLimitTitle,
          text: DOMAIN_MESSAGES.vipWeeklyLimitText,
          button: { label: 'とじる', action: 'close' },
          then: 'stay',
        },
      },
    });
    await screen.line.reserve();
    expect(view(screen).popup).toMatchObject({ code: 570, title: '今週のVIP景品を獲得済みです' });
    screen.messages.dismissPopup();
    expect(navigator.visits).toEqual([]);
    reservations.answer('reserve', {
      value: {
        kind: 'vipRefused',
        outcome: {
          code: 571,
          title: DOMAIN_MESSAGES.vipExclusiveInUseTitle,
          text: DOMAIN_MESSAGES.vipExclusiveInUseText,
          button: { label: 'とじる', action: 'close' },
          then: 'returnToList',
        },
      },
    });
    await screen.line.reserve();
    expect(view(screen).popup).toMatchObject({ code: 571, title: '他のお客様がVIP独占台をプレイ中です' });
    screen.messages.dismissPopup();
    expect(navigator.visits).toEqual([{ kind: 'goTo', url: '/' }]);
    screen.dispose();
  });

  it('[R7-12] confirming stops polling, takes the turn and sends play_game; the buttons travel as controls; the latency is measured from the pictures', async () => {
    const { screen, reservations, plays, realtime, analytics, clock, stills } = setUp();
    await screen.open(STATION);
    await takeTheLine(screen, reservations);
    const started: PlayView = aPlayView({
      play_id: 9,
      station_id: STATION,
      phase: 'resetting',
      window_ms_left: 2000,
      price: 150,
    });
    plays.answer('confirm', { value: started });
    await screen.play.confirm();
    expect(plays.callsOf('confirm')).toEqual([[STATION]]);
    expect(analytics.sent).toEqual([
      expect.objectContaining({
        name: 'play_game',
        params: expect.objectContaining({ play_money: 150, ticket_num: 0, user_id: 42, shop_id: 1, is_pc: 1 }),
      }),
    ]);
    clock.advance(RESERVE_POLLING_TIME * 3000);
    await flush();
    expect(reservations.callsOf('currentReservation')).toEqual([]); // no polling once the turn is taken [R4.3-7]

    realtime.emit(
      { kind: 'station', stationId: STATION },
      { type: 'playState', play: { ...started, phase: 'playing', machine: aMachineView({ tick: 40 }) } },
    );
    expect(view(screen).play?.phase).toBe('playing');
    realtime.controls.answer('control', {
      value: {
        ok: true,
        tick: 41,
        machine: aMachineView({ tick: 41, phase: 'movingRight', button: 'right', button_ms_left: null }),
      },
    });
    screen.play.press('right');
    screen.play.press('right'); // held already: not sent twice
    expect(realtime.controls.callsOf('control')).toEqual([[{ playId: 9, button: 'right', command: 'press' }]]);
    expect(view(screen).machine?.phase).toBe('movingRight');
    // The next still that shows tick 41 or later closes the measurement.
    stills.tick = 40;
    clock.advance(90);
    expect(view(screen).latencyMs).toBeNull();
    stills.tick = 43;
    clock.advance(90);
    expect(view(screen).latencyMs).toBe(180);
    realtime.controls.answer('control', {
      value: { ok: true, tick: 60, machine: aMachineView({ tick: 60, phase: 'waitBack', button: 'back' }) },
    });
    screen.play.release('right');
    expect(realtime.controls.callsOf('control')[1]).toEqual([{ playId: 9, button: 'right', command: 'release' }]);
    screen.dispose();
  });

  it('[R2.5-6] a push shown in the page goes by itself after 3.5 s on the clock; a newer one replaces it and gets its own 3.5 s', async () => {
    const { screen, realtime, clock } = setUp();
    await screen.open(STATION);
    const push = (title: string) =>
      realtime.emit({ kind: 'user' }, { type: 'push', push: { kind: 'notice', title, message: '' } });
    push('一つ目');
    expect(view(screen).notice?.title).toBe('一つ目');
    clock.advance(3499);
    expect(view(screen).notice?.title).toBe('一つ目');
    clock.advance(1);
    expect(view(screen).notice).toBeNull();
    push('二つ目');
    clock.advance(2000);
    push('三つ目');
    clock.advance(2000);
    expect(view(screen).notice?.title).toBe('三つ目');
    clock.advance(1500);
    expect(view(screen).notice).toBeNull();
    push('四つ目');
    screen.messages.dismissNotice();
    expect(view(screen).notice).toBeNull();
    screen.dispose();
  });

  it('a result refreshes the gauge; continue sends continue_game; finish leaves; a push shows in the page and as a notification', async () => {
    const { screen, plays, realtime, analytics, notifications, reservations } = setUp();
    await screen.open(STATION);
    reservations.always('currentReservation', {
      kind: 'reservation',
      info: record({ reserve_status: 'playTransition', reserve_num: 1, reserve_time: 15 }),
    });
    await takeTheLine(screen, reservations);
    plays.answer('confirm', { value: aPlayView({ play_id: 9, station_id: STATION, phase: 'resetting' }) });
    await screen.play.confirm();
    const result = aPlayView({
      play_id: 9,
      station_id: STATION,
      phase: 'result',
      result: 'miss',
      window_ms_left: 10_000,
    });
    plays.always('gauge', anAssistGauge({ misses: 1, fill: 0.1, misses_to_next_level: 1 }));
    realtime.emit(
      { kind: 'user' },
      {
        type: 'push',
        push: {
          kind: 'turnNear',
          title: 'まもなくあなたの番です',
          message: '「もちもちうさぎ」の順番まであと2番目です。',
        },
      },
    );
    expect(view(screen).notice?.title).toBe('まもなくあなたの番です');
    expect(notifications.shown).toEqual([
      { title: 'まもなくあなたの番です', body: '「もちもちうさぎ」の順番まであと2番目です。' },
    ]);
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'playState', play: result });
    await flush();
    expect(view(screen).play).toMatchObject({ phase: 'result', result: 'miss' });
    expect(view(screen).gauge).toMatchObject({ misses: 1 });
    plays.answer('continuePlay', { value: aPlayView({ play_id: 10, station_id: STATION, phase: 'resetting' }) });
    await screen.play.continuePlay();
    expect(analytics.sent.map((e) => e.name)).toEqual(['play_game', 'continue_game']);
    expect(view(screen).play?.play_id).toBe(10);
    plays.answer('finish', { value: undefined });
    await screen.play.finish();
    expect(view(screen).play).toBeNull();
    screen.dispose();
  });

  it('[R5-1] the sound and hide-character switches are saved for a signed-in player', async () => {
    const { screen, account } = setUp();
    await screen.open(STATION);
    account.answer('setVolume', { value: 0 as never });
    account.answer('setHideCharacter', { value: 1 as never });
    await screen.settings.setSound(false);
    await screen.settings.setHideCharacter(true);
    expect(account.callsOf('setVolume')).toEqual([[false]]);
    expect(account.callsOf('setHideCharacter')).toEqual([[true]]);
    expect(view(screen)).toMatchObject({ sound: false, hideCharacter: true });
    screen.dispose();
  });

  it('a refused confirm (402: too little TC) shows its Japanese text and polling resumes', async () => {
    const { screen, reservations, plays, clock } = setUp();
    await screen.open(STATION);
    await takeTheLine(screen, reservations);
    plays.answer('confirm', {
      error: Object.assign(new Error('402'), { info: 'TCが不足しています（必要: 150、保有: 0）。' }),
    });
    await screen.play.confirm();
    expect(view(screen).alert).toEqual({ kind: 'refused', message: 'TCが不足しています（必要: 150、保有: 0）。' });
    reservations.answer('currentReservation', {
      value: {
        kind: 'reservation',
        info: record({ reserve_status: 'playTransition', reserve_num: 1, reserve_time: 9 }),
      },
    });
    clock.advance(RESERVE_POLLING_TIME * 1000);
    await flush();
    expect(reservations.callsOf('currentReservation')).toHaveLength(1);
    screen.dispose();
  });

  it('[R9-3] polls are serialised: a timer, a line push and a turn push while a poll is on its way never put two get_reserve in flight, and the newest answer shows', async () => {
    const { screen, reservations, clock, realtime } = setUp();
    await screen.open(STATION);
    reservations.answer('reserve', {
      value: { kind: 'reserved', info: record({ reserve_status: 'reserve', reserve_num: 3 }), play: {} as never },
    });
    await screen.line.reserve();
    let inFlight = 0;
    let most = 0;
    const answers: Subject<{ kind: 'reservation'; info: ReturnType<typeof record> }>[] = [];
    const held = () => {
      const answer = new Subject<{ kind: 'reservation'; info: ReturnType<typeof record> }>();
      answers.push(answer);
      return {
        observable: defer(() => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          return answer;
        }).pipe(finalize(() => (inFlight -= 1))),
      };
    };
    reservations.answer('currentReservation', held(), held(), held());
    clock.advance(RESERVE_POLLING_TIME * 1000); // the timer's poll
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'reserveChange', stationId: STATION });
    realtime.emit(
      { kind: 'user' },
      { type: 'push', push: { kind: 'turnNear', title: 'まもなくあなたの番です', message: 'あと1人です。' } },
    );
    await flush();
    expect(reservations.callsOf('currentReservation')).toHaveLength(3);
    expect(most).toBe(1);
    expect(inFlight).toBe(1);
    // The older answers arrive late: they were replaced, so they show nothing.
    answers[0]!.next({ kind: 'reservation', info: record({ reserve_status: 'reserve', reserve_num: 9 }) });
    answers[1]!.next({ kind: 'reservation', info: record({ reserve_status: 'reserve', reserve_num: 8 }) });
    expect(view(screen).reservation?.place).toBe(3);
    answers[2]!.next({ kind: 'reservation', info: record({ reserve_status: 'reserve', reserve_num: 1 }) });
    answers[2]!.complete();
    expect(view(screen).reservation?.place).toBe(1);
    expect(inFlight).toBe(0);
    screen.dispose();
  });

  it('[R4.3-7] commands travel one at a time: a second confirm while the first is on its way is not sent, and a poll asked for meanwhile waits for the command and then runs', async () => {
    const { screen, reservations, plays, realtime } = setUp();
    await screen.open(STATION);
    await takeTheLine(screen, reservations);
    const confirmed = new Subject<PlayView>();
    plays.answer('confirm', { observable: confirmed });
    const first = screen.play.confirm();
    expect(view(screen).busy).toBe(true);
    await screen.play.confirm(); // dropped at once: the lane is taken
    await screen.line.cancel(); // the same
    expect(plays.callsOf('confirm')).toHaveLength(1);
    expect(reservations.callsOf('cancelReservation')).toHaveLength(0);
    reservations.answer('currentReservation', {
      value: { kind: 'reservation', info: record({ reserve_status: 'playWaiting', reserve_num: 1 }) },
    });
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'reserveChange', stationId: STATION });
    await flush();
    expect(reservations.callsOf('currentReservation')).toHaveLength(0); // waits for the confirm
    plays.answer('current', { value: aPlayView({ play_id: 9, station_id: STATION, phase: 'resetting' }) as never });
    confirmed.next(aPlayView({ play_id: 9, station_id: STATION, phase: 'resetting' }));
    confirmed.complete();
    await first;
    await flush();
    expect(view(screen).busy).toBe(false);
    expect(view(screen).play?.play_id).toBe(9);
    expect(reservations.callsOf('currentReservation')).toHaveLength(1); // ran after the confirm
    expect(view(screen).alert).toBeNull();
    screen.dispose();
  });

  it("one play screen's parts share its lane and its messages; another screen shares nothing with it", () => {
    const { screen, container } = setUp();
    const other = container.get<StationPlay>(TOKENS.StationPlay);
    expect(other.lane).not.toBe(screen.lane);
    expect(other.line).not.toBe(screen.line);
    expect(other.messages).not.toBe(screen.messages);
    // A refusal in the line shows in this screen's messages only.
    screen.messages.alert({ kind: 'refused', message: 'TCが不足しています。' });
    expect(other.messages.snapshot.alert).toBeNull();
    screen.dispose();
    expect(screen.line.disposed && screen.play.disposed && screen.lane.disposed).toBe(true);
    expect(other.line.disposed).toBe(false);
    other.dispose();
  });

  it('the visit follows the page: joined again after a reconnection, the page visits again (the server ended its visit with the connection); leaving the screen ends it', async () => {
    const { screen, reservations, realtime } = setUp();
    reservations.always('visit', {
      kind: 'watching',
      info: aStationReserveInfo({ station_id: STATION, station_setting_id: 70, visit_count: 3, reserve_status: null }),
    });
    reservations.always('cancelVisit', { station_setting_id: 70, visit_count: 2 } as never);
    await screen.open(STATION);
    expect(reservations.callsOf('visit')).toEqual([[STATION]]);
    // The first join is the page's own: nothing more is sent.
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'joined' });
    await flush();
    expect(reservations.callsOf('visit')).toHaveLength(1);
    // A reconnection joins again.
    realtime.emit({ kind: 'station', stationId: STATION }, { type: 'joined' });
    await flush();
    expect(reservations.callsOf('visit')).toEqual([[STATION], [STATION]]);
    expect(reservations.callsOf('cancelVisit')).toEqual([]);
    screen.dispose();
    expect(reservations.callsOf('cancelVisit')).toEqual([[70]]);
  });
});
