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
