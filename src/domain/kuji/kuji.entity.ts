/** Kuji reserve statuses the client keeps polling for [R4.4-1]. */
export const KUJI_RESERVE_STATUSES = ['reserve', 'firstReserved', 'confirm'] as const;
export type KujiReserveStatus = (typeof KUJI_RESERVE_STATUSES)[number];

/** Statuses that show the queue [R4.4-1]. */
export const KUJI_QUEUE_STATUSES: readonly KujiReserveStatus[] = ['firstReserved', 'confirm'];

/**
 * Kuji box statuses. 'onSale' is ours (the spec names only the ending ones); 'ready', 'endOfSale',
 * 'outOfStock' and 'deleted' end polling [R4.4-2].
 */
export const KUJI_BOX_STATUSES = ['onSale', 'ready', 'endOfSale', 'outOfStock', 'deleted'] as const;
export type KujiBoxStatus = (typeof KUJI_BOX_STATUSES)[number];
export const KUJI_ENDED_BOX_STATUSES: readonly KujiBoxStatus[] = ['ready', 'endOfSale', 'outOfStock', 'deleted'];

/**
 * Kuji play info (spec §3) [R3-8]. reserve_status and box_status stay open strings: the server may
 * send statuses this client does not know, and the rules treat those as "stop".
 */
export interface KujiPlayInfo {
  readonly reserve_polling_id: number | null;
  readonly kuji_play_reserve_id: number | null;
  readonly reserve_token: string;
  readonly reserve_num: number;
  readonly reserve_status: KujiReserveStatus | (string & {}) | null;
  readonly kuji_id: number | null;
  readonly box_id: number | null;
  readonly box_status: KujiBoxStatus | (string & {}) | null;
  readonly reserve_remaintime: number;
  /** When the current step began: service time text ('YYYY-MM-DD HH:mm:ss' JST or ISO 8601). */
  readonly play_at: string | null;
}

/** Maximum seconds of each timed kuji status: configuration, passed in [R4.4-5]. */
export interface KujiTimeLimits {
  readonly confirm: number;
  readonly firstReserved: number;
}

/**
 * The service's kuji windows, in seconds: the holder has `firstReserved` to start drawing and
 * `confirm` after each draw to draw again (the server holds them; the client counts down its answers).
 */
export const KUJI_TIME_LIMITS: KujiTimeLimits = { firstReserved: 60, confirm: 180 };

/**
 * The windows from two settings (whole seconds, 5 to 3600), each falling back to KUJI_TIME_LIMITS when
 * unset; null when a set value is not such a number. The server reads them (KUJI_* settings).
 */
export function kujiTimeLimitsFrom(
  firstReserved: string | undefined,
  confirm: string | undefined,
): KujiTimeLimits | null {
  const read = (value: string | undefined, fallback: number): number | null => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    return Number.isInteger(n) && n >= 5 && n <= 3600 ? n : null;
  };
  const first = read(firstReserved, KUJI_TIME_LIMITS.firstReserved);
  const conf = read(confirm, KUJI_TIME_LIMITS.confirm);
  return first === null || conf === null ? null : { firstReserved: first, confirm: conf };
}

export function isKujiReserveStatus(value: unknown): value is KujiReserveStatus {
  return typeof value === 'string' && (KUJI_RESERVE_STATUSES as readonly string[]).includes(value);
}

export interface KujiBoxPrize {
  readonly rank: string;
  readonly prize_name: string;
  readonly img_url: string;
  readonly quantity: number;
  readonly remaining: number;
  /** 1 for the last-one prize: no ticket of its own, it goes with the box's last ticket. */
  readonly last_one: 0 | 1;
}

export interface KujiBox {
  readonly box_id: number;
  readonly box_no: number;
  readonly box_status: KujiBoxStatus;
  /** Tickets in the box, and tickets left (the last-one prize is no ticket). */
  readonly total_count: number;
  readonly remaining_count: number;
  readonly prizes: readonly KujiBoxPrize[];
}

/** A kuji on sale with its pictures and boxes (POST /contents/kuji). */
export interface KujiOnSale {
  readonly kuji_id: number;
  readonly kuji_name: string;
  readonly description: string;
  readonly price: number;
  readonly starts_at: string;
  readonly ends_at: string;
  readonly kuji_img_urls: readonly string[];
  readonly boxes: readonly KujiBox[];
}

/** A prize a draw gave: the ticket's position in the box's order (null for the last-one prize). */
export interface KujiDrawnPrize {
  readonly position: number | null;
  readonly rank: string;
  readonly prize_name: string;
  readonly img_url: string;
}

/** One draw's answer (docs/kuji.md). */
export interface KujiDrawResult {
  readonly draw_id: number;
  readonly kuji_id: number;
  readonly box_id: number;
  readonly tickets: readonly KujiDrawnPrize[];
  readonly last_one: KujiDrawnPrize | null;
  readonly price_total: number;
  readonly tc: { readonly tc_all: number; readonly tc_free: number; readonly tc_toll: number };
  readonly remaining_count: number;
  readonly box_status: KujiBoxStatus;
  readonly replayed: 0 | 1;
}

/** What anyone may know of a box's fairness: the seed only once the box ended. */
export interface KujiFairnessRecord {
  readonly version: string;
  readonly kuji_id: number;
  readonly box_id: number;
  readonly box_status: KujiBoxStatus;
  readonly commitment: string;
  readonly opened_at: string;
  readonly stock: readonly { readonly rank: string; readonly quantity: number }[];
  readonly seed: string | null;
  readonly revealed_at: string | null;
  readonly draws: readonly { readonly position: number; readonly rank: string }[];
}
