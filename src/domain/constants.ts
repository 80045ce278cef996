/**
 * Every business constant and limit of spec §9, in one module, named as the spec names them where
 * it names them. Adapters and use-cases read their timings from here instead of repeating numbers.
 * Values the spec leaves open ("not shown") are our choices and say so.
 */

/** Milliseconds in one second, minute, hour and day (used by the time rules). */
export const SECOND_MS = 1_000;
export const MINUTE_MS = 60 * SECOND_MS;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

// ---- Responses and maintenance codes (§8, §4.6) ----------------------------------------------

/** A response is successful when error_code is 200 [R8-1]. */
export const SUCCESS_CODE = 200;

/** error_code 531 on the reserve fetch: the station is under maintenance [R4.3-6]. */
export const STATION_MAINTENANCE_ERROR_CODE = 531;

/** error_code 569: the station is VIP-only and the user does not qualify [R8-2]. */
export const VIP_ONLY_ERROR_CODE = 569;
/** error_code 570: this week's VIP prize was already won [R8-3]. */
export const VIP_WEEKLY_LIMIT_ERROR_CODE = 570;
/** error_code 571: another user is playing the exclusive VIP station [R8-4]. */
export const VIP_EXCLUSIVE_IN_USE_ERROR_CODE = 571;

/**
 * The maintenance codes of spec §8 and the cancellation code of §4.6. The spec names them but does
 * not show their numbers ("not shown"), so these values are our design: four distinct codes in the
 * 9000 range, well away from HTTP-like codes (200, 4xx, 5xx) and the VIP codes (569–571).
 */
export const MAINTENANCE_CODES = {
  /** Service-wide emergency maintenance: show the maintenance screen. */
  emergency: 9001,
  /** The user may not use the service: show the maintenance screen. */
  invaliduser: 9002,
  /** The client state is stale: show the reload-error alert. */
  reloaderror: 9003,
  /** The session was cancelled: reload (web, ios, android), yahoo top page, or mobage auth reset. */
  cancellation: 9004,
} as const;

// ---- Delivery (§9) ---------------------------------------------------------------------------

/** Delivery charge in TC for one crane or order-made prize [R9-1]. */
export const DELIVERY_FEE_TC = 8000;
/** Kuji prizes ship in parcels of this many; each parcel costs DELIVERY_FEE_TC [R9-1]. */
export const KUJI_PER_DELIVERY_PARCEL = 15;

// ---- VIP and account windows (§6, §9) --------------------------------------------------------

/** vip_level of a normal (non-VIP) user; anything above is VIP [R6-2]. */
export const NORMAL_VIP_LEVEL = 0;
/** TC a user must have purchased within the VIP window to play VIP-only stations [R6-3]. */
export const VIP_REQUIRED_PURCHASE_TC = 100_000;
/** Length of the VIP purchase window [R6-3]: the past 30 days, rolling. */
export const VIP_PURCHASE_WINDOW_DAYS = 30;
/** When a week starts on the clock in Japan: weekday 0 = Monday … 6 = Sunday, and the hour (0–23). */
export interface WeekStart {
  readonly weekday: number;
  readonly hour: number;
}
/**
 * The service's week starts Monday 00:00 Asia/Tokyo: the count of VIP prizes won resets [R6-4, R8-3]
 * and the free-delivery ticket is granted [R10-6].
 */
export const WEEK_START: WeekStart = { weekday: 0, hour: 0 };
/**
 * VIP prizes one user may win per week (the week of WEEK_START) [R6-4, R8-3].
 * The spec's message says "this week's VIP prize", singular; the number is ours and an argument.
 */
export const VIP_WEEKLY_PRIZE_LIMIT = 1;
/** A new user is one whose account was created within this many days [R4.7-2]. */
export const NEW_USER_WINDOW_DAYS = 7;
/** users with this login-info status ignore maintenance pushes [R4.1-2]. */
export const MAINTENANCE_EXEMPT_USER_STATUS = 3;

// ---- Lists and notices (§2.5, §9) ------------------------------------------------------------

/**
 * Page size for item lists (spec name PAGE_ITEMS_COUNT, value not shown) [R9-3]. Our default:
 * 30, a multiple of 2, 3, 5 and 6 so grids of any common width end on a full row.
 */
export const PAGE_ITEMS_COUNT = 30;
/**
 * Reserve polling interval in seconds (spec name RESERVE_POLLING_TIME, value not shown) [R9-3].
 * Our default: 3 s, short enough that a queue position feels live.
 */
export const RESERVE_POLLING_TIME = 3;
/** A notice toast disappears after 3.5 seconds [R2.5-6]. */
export const NOTICE_TOAST_MS = 3_500;
/** News and information are fetched 100 per page [R9-2]. */
export const NEWS_PAGE_SIZE = 100;
export const INFORMATION_PAGE_SIZE = 100;
/** The new-arrival listing fetches 50 [R9-2]. */
export const NEW_ARRIVALS_LIMIT = 50;
/** The side banner shows the first 3 carousels [R9-2]. */
export const SIDE_BANNER_CAROUSEL_COUNT = 3;
/** Remaining time below this many seconds counts as 0 when no polling runs [R9-4]. */
export const REMAINING_TIME_FLOOR_SECONDS = 10;
/**
 * Winner marquee: the speed derives from the message length [R9-5]. The spec gives no numbers;
 * ours: each character adds 300 ms of scrolling, and no run is shorter than 8 s.
 */
export const MARQUEE_MS_PER_CHARACTER = 300;
export const MARQUEE_MIN_DURATION_MS = 8_000;

// ---- Stream and video (§4.2, §9) -------------------------------------------------------------

/** Still-image refresh interval while the page is in the foreground [R9-8]. */
export const STILL_IMAGE_REFRESH_MS = 90;
/** Default working refresh rate (frames per second) [R9-8]. */
export const STILL_IMAGE_WORKING_RATE = 10;
/** Refresh rate (frames per second) while the page is in the background [R9-8]. */
export const STILL_IMAGE_BACKGROUND_RATE = 2;
/** Luminance values are percentages; absent ones count as 100 [R3-2, R9-9]. */
export const DEFAULT_LUMINANCE = 100;
/** Channel ids used when watch_info has none [R4.2-3]. */
export const DEFAULT_FRONT_CHANNEL = 'default_front_channel';
export const DEFAULT_SIDE_CHANNEL = 'default_side_channel';
/** The video view: 75% height, rotated 90 degrees [R9-10]. */
export const VIDEO_VIEW_HEIGHT_PERCENT = 75;
export const VIDEO_VIEW_ROTATION_DEG = 90;
/** The only video codec used [R4.2-6, R9-10]. */
export const VIDEO_CODEC = 'VP8';
/** Secure WebSocket signaling port of the media server [R9-10]. */
export const SIGNALING_PORT = 443;
/** Packet-loss monitor sampling interval (logging only) [R9-11]. */
export const PACKET_LOSS_SAMPLE_MS = 2_000;
/** Video service defaults [R9-12]. */
export const VIDEO_SERVICE_DEFAULTS = {
  connectionTimeoutMs: 60_000,
  disconnectWaitMs: 3_000,
  signalingCandidateTimeoutMs: 3_000,
  iceDisconnectedTimeoutMs: 10_000,
} as const;

// ---- Build manifest and realtime socket (§9) -------------------------------------------------

/** The build manifest is checked hourly; a reload is not repeated within 10 s [R9-13]. */
export const BUILD_MANIFEST_CHECK_MS = HOUR_MS;
export const RELOAD_GUARD_MS = 10 * SECOND_MS;

/** Real-time socket settings [R9-14]. */
export const REALTIME_SOCKET_SETTINGS = {
  connectTimeoutMs: 20_000,
  reconnection: true,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  reconnectionDelayMs: 1_000,
  reconnectionDelayMaxMs: 5_000,
  randomizationFactor: 0.5,
  path: '/socket.io',
  pollingPath: '/engine.io',
  perMessageDeflateThresholdBytes: 1_024,
} as const;

// ---- Account forms ---------------------------------------------------------------------------

/** Longest nickname, in characters. */
export const NICKNAME_MAX = 16;
/** A password's length in characters (sign-up, reset and change). */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Digits of a one-time code sent by mail or SMS. */
export const VERIFICATION_CODE_DIGITS = 6;
/** A present code's length, in letters and digits. */
export const PRESENT_CODE_LENGTH = { min: 4, max: 20 } as const;
/** A code sent by mail or SMS (e-mail check, phone check, password reset) is valid this long. */
export const VERIFICATION_CODE_TTL_MS = 30 * MINUTE_MS;
/** Free TC a new debug user starts with, so the purchase-free flows can be tried at once (development only) [R6-6]. */
export const DEBUG_WELCOME_TC = 10_000;

/** How long a won prize is kept before it must ship (days) [R10-5]; the server's default. */
export const PRIZE_STORAGE_DAYS = 30;
/** The player is told this many days before a prize's storage period ends [R10-5]. */
export const STORAGE_NOTICE_DAYS = [7, 1] as const;
/** Most prizes one delivery request may carry. */
export const MAX_PRIZES_PER_DELIVERY = 100;
