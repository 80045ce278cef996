import { describe, expect, it } from 'vitest';
import { RequestRate } from '../../server/live/request-rate';
import { SpectatorTally, sumSpectators } from '../../server/realtime/spectator-tally';
import { ManualServerClock } from '../support/manual-server-clock';

describe('SpectatorTally', () => {
  it('holds one report per connection: a new one replaces it, a drop removes it, stations kept apart', () => {
    const tally = new SpectatorTally();
    tally.set('a', 1, 'hls');
    tally.set('b', 1, 'hls');
    tally.set('c', 2, 'jpg');
    expect(tally.rows()).toEqual([
      { station_id: 1, hls: 2, rtc: 0, jpg: 0 },
      { station_id: 2, hls: 0, rtc: 0, jpg: 1 },
    ]);
    tally.set('a', 1, 'rtc');
    tally.set('a', 1, 'rtc');
    tally.set('c', 1, 'jpg');
    expect(tally.rows()).toEqual([{ station_id: 1, hls: 1, rtc: 1, jpg: 1 }]);
    tally.drop('a');
    tally.drop('a');
    tally.drop('nobody');
    tally.drop('b');
    tally.drop('c');
    expect(tally.rows()).toEqual([]);
  });

  it('sums the instances’ rows per station', () => {
    expect(
      sumSpectators([
        { station_id: 2, hls: 1, rtc: 0, jpg: 0 },
        { station_id: 1, hls: 3, rtc: 1, jpg: 0 },
        { station_id: 2, hls: 4, rtc: 0, jpg: 2 },
      ]),
    ).toEqual([
      { station_id: 1, hls: 3, rtc: 1, jpg: 0 },
      { station_id: 2, hls: 5, rtc: 0, jpg: 2 },
    ]);
  });
});

describe('RequestRate', () => {
  it('counts requests a second over the last 5 s on the injected clock, then forgets them', () => {
    const clock = new ManualServerClock(new Date('2025-01-01T00:00:00.000Z'));
    const rate = new RequestRate(clock);
    expect(rate.perSecond('1:front')).toBe(0);
    for (let i = 0; i < 10; i += 1) rate.hit('1:front');
    expect(rate.perSecond('1:front')).toBe(2);
    clock.advance(2_000);
    for (let i = 0; i < 5; i += 1) rate.hit('1:front');
    expect(rate.perSecond('1:front')).toBe(3);
    expect(rate.perSecond('1:side')).toBe(0);
    clock.advance(3_000);
    // The first ten are 5 s old: out of the window.
    expect(rate.perSecond('1:front')).toBe(1);
    clock.advance(60_000);
    expect(rate.perSecond('1:front')).toBe(0);
    rate.hit('1:front');
    expect(rate.perSecond('1:front')).toBe(0.2);
  });
});
