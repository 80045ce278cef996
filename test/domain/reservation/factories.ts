import type { PlayInfo, ReserveStatusRecord } from '../../../src/domain';
import { EMPTY_PLAY_INFO } from '../../../src/domain';

/** A reserve status record of someone third in line; override any field. */
export function aReserveRecord(overrides: Partial<ReserveStatusRecord> = {}): ReserveStatusRecord {
  return {
    station_status: 'open',
    visit_count: 4,
    reserve_count: 3,
    reserve_status: 'reserve',
    reserve_token: 'tok-1',
    reserve_num: 3,
    reserve_time: 60,
    play_reserve_id: 10,
    playing: 0,
    viewable: 1,
    request_flag: 0,
    request_type: 0,
    ...overrides,
  };
}

export function aPlayInfo(overrides: Partial<PlayInfo> = {}): PlayInfo {
  return { ...EMPTY_PLAY_INFO, ...overrides };
}
