import type { CarouselSlide, InformationItem, KujiOnSale, NewArrival, VirtualCrane } from '../../domain';
import type {
  Character, KujiBoxStatus, PrizeItem, ReserveStatus, StationStatus, TabListItem,
} from '../../domain';
import type { InMemoryBackend } from './in-memory-backend';

/** A station as the fakes keep it: the listed item plus what the server filters and gates on. */
export interface InMemoryStation extends PrizeItem {
  readonly shop_id: number;
  readonly character_id: number;
  readonly sub_character_id: number;
  readonly gift_type: number;
  readonly stock: number;
  readonly recommend: boolean;
}

/** A catalogue tab; a genre tab names its genre. */
export type InMemoryTab = TabListItem & { readonly genre: string | null };

export interface InMemoryKuji extends KujiOnSale {
  readonly shop_id: number;
}

/** The catalogue, kuji and editorial contents the fakes start from (`InMemoryDataset.catalogue`). */
export interface InMemoryCatalogueData {
  readonly shops: readonly number[];
  readonly stations: readonly InMemoryStation[];
  readonly tabs: readonly InMemoryTab[];
  readonly characters: readonly Character[];
  /** Festivals; the first of a shop is the one running. */
  readonly fes: readonly { readonly fes_id: number; readonly shop_id: number; readonly station_ids: readonly number[] }[];
  readonly kuji: readonly InMemoryKuji[];
  readonly carousels: readonly (CarouselSlide & { readonly shop_id: number })[];
  readonly information: readonly (InformationItem & { readonly shop_id: number })[];
  readonly virtualCranes: readonly VirtualCrane[];
  /** Newest first. */
  readonly newArrivals: readonly NewArrival[];
}

export const EMPTY_CATALOGUE_DATA: InMemoryCatalogueData = {
  shops: [1], stations: [], tabs: [], characters: [], fes: [], kuji: [], carousels: [], information: [], virtualCranes: [], newArrivals: [],
};

export interface StationReservationRow {
  readonly play_reserve_id: number;
  readonly user_id: number;
  readonly station_id: number;
  readonly station_setting_id: number;
  reserve_status: ReserveStatus;
  readonly reserve_token: string;
  readonly queued_seq: number;
}

export interface VisitRow {
  readonly user_id: number;
  readonly station_id: number;
  readonly station_setting_id: number;
  ended: boolean;
}

export type KujiPlayStatus = 'reserve' | 'firstReserved' | 'confirm' | 'cancel' | 'end';

export interface KujiReservationRow {
  readonly kuji_play_reserve_id: number;
  readonly user_id: number;
  readonly kuji_id: number;
  readonly box_id: number;
  reserve_status: KujiPlayStatus;
  readonly reserve_token: string;
  readonly queued_seq: number;
  /** Epoch ms the current timed status began; null while waiting. */
  play_at_ms: number | null;
}

/**
 * The mutable play state behind the catalogue, reservation and kuji fakes: station statuses and
 * settings, lines and visits, VIP wins, kuji boxes and their lines. One per backend, so every fake
 * (and every client container) over that backend sees the same state; the contract suite's
 * operator fixtures change it here.
 */
export class InMemoryPlayState {
  readonly stations = new Map<number, InMemoryStation>();
  /** station_id → its active station_setting_id. */
  readonly settings = new Map<number, number>();
  readonly reservations: StationReservationRow[] = [];
  readonly visits: VisitRow[] = [];
  readonly vipWins: { readonly user_id: number; readonly station_id: number; readonly won_at_ms: number }[] = [];
  readonly kuji: InMemoryKuji[];
  readonly boxStatus = new Map<number, KujiBoxStatus>();
  readonly kujiReservations: KujiReservationRow[] = [];
  private seq = 0;

  constructor(readonly data: InMemoryCatalogueData) {
    for (const s of data.stations) {
      this.stations.set(s.station_id, s);
      this.settings.set(s.station_id, 1000 + s.station_id);
    }
    this.kuji = data.kuji.map((k) => ({ ...k, boxes: [...k.boxes] }));
    for (const k of this.kuji) for (const b of k.boxes) this.boxStatus.set(b.box_id, b.box_status);
  }

  next(): number {
    this.seq += 1;
    return this.seq;
  }

  /** A reserve token like the server's: 32 url-safe characters, unique per state. */
  token(prefix: string): string {
    return `${prefix}${this.next()}`.padEnd(32, 'x').replace(/[^A-Za-z0-9_-]/g, '_');
  }

  setStationStatus(stationId: number, status: StationStatus): void {
    const station = this.stations.get(stationId);
    if (!station) throw new Error(`no station ${stationId}`);
    this.stations.set(stationId, { ...station, station_status: status });
  }

  recordVipWin(userId: number, stationId: number, atMs: number): void {
    this.vipWins.push({ user_id: userId, station_id: stationId, won_at_ms: atMs });
  }

  /** A new box on sale, with the prizes of the kuji's first box, full. */
  addKujiBox(kujiId: number): { kuji_id: number; box_id: number } {
    const index = this.kuji.findIndex((k) => k.kuji_id === kujiId);
    const kuji = this.kuji[index];
    if (!kuji) throw new Error(`no kuji ${kujiId}`);
    const boxId = 10_000 + this.next();
    const prizes = (kuji.boxes[0]?.prizes ?? []).map((p) => ({ ...p, remaining: p.quantity }));
    const total = prizes.reduce((n, p) => n + p.quantity, 0);
    const box = { box_id: boxId, box_no: kuji.boxes.length + 1, box_status: 'onSale' as const, total_count: total, remaining_count: total, prizes };
    this.kuji[index] = { ...kuji, boxes: [...kuji.boxes, box] };
    this.boxStatus.set(boxId, 'onSale');
    return { kuji_id: kujiId, box_id: boxId };
  }

  setKujiBoxStatus(boxId: number, status: KujiBoxStatus): void {
    if (!this.boxStatus.has(boxId)) throw new Error(`no box ${boxId}`);
    this.boxStatus.set(boxId, status);
  }
}

const states = new WeakMap<InMemoryBackend, InMemoryPlayState>();

/** The play state of a backend, created from `data` on first use (later calls ignore `data`). */
export function playStateOf(backend: InMemoryBackend, data: InMemoryCatalogueData = EMPTY_CATALOGUE_DATA): InMemoryPlayState {
  let state = states.get(backend);
  if (!state) {
    state = new InMemoryPlayState(data);
    states.set(backend, state);
  }
  return state;
}
