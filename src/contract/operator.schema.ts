import { z } from 'zod/mini';
import {
  isAcceptableText,
  KUJI_BOX_STATUSES,
  OPERATOR_RIGHTS,
  RECONCILIATION_MISMATCH_KINDS,
  RECONCILIATION_UNITS,
  OPERATOR_ROLES,
  SETTINGS_CHANGE_REASONS,
  SETTINGS_FIELDS,
  STAFF_ASSIST_ANSWERS,
  STAFF_ASSIST_MAX_MISSES,
  STATION_STATUSES,
} from '../domain';
import { errorResponseSchema } from './envelope';
import { AGENT_CLAW_PHASES, AGENT_MAX_STATIONS } from './agent.schema';
import { CONTRACT_MESSAGES as M, FIELD_LABELS_JA } from './messages';
import { PLAY_PHASES, playLogEntrySchema } from './play.schema';
import { isCalendarDay } from './schema-helpers';
import { idSchema } from './user-identity.schema';

/**
 * The operator API (docs/play.md): its own token, not a user login. Paths are relative to the API
 * base; every call is a POST with a JSON body.
 */
export const OPERATOR_ENDPOINTS = {
  stationStatus: 'operator/station_status',
  fault: 'operator/fault',
  restock: 'operator/restock',
  changePrize: 'operator/change_prize',
  armStrength: 'operator/arm_strength',
  /** The arm strength and the price, with a reason; waits for a player's run to end [R11-6]. */
  stationSettings: 'operator/station_settings',
  playLog: 'operator/play_log',
  kujiBoxStatus: 'operator/kuji_box_status',
  kujiBoxStock: 'operator/kuji_box_stock',
  // Fulfilment (docs/delivery.md): schemas in delivery.schema.ts.
  deliveries: 'operator/deliveries',
  deliveryShip: 'operator/delivery_ship',
  deliveryCancel: 'operator/delivery_cancel',
  prizeGrant: 'operator/prize_grant',
  // Operator accounts (docs/operator-console.md, R10-9).
  login: 'operator/login',
  logout: 'operator/logout',
  me: 'operator/me',
  audit: 'operator/audit',
  // The console (docs/operator-console.md): the floor, service messages, users, numbers, kuji boxes.
  floor: 'operator/floor',
  endPlay: 'operator/end_play',
  /** Answers a player's staff assist: done (the prize put back within reach) or declined [R11-9]. */
  assistAnswer: 'operator/assist_answer',
  removeFromLine: 'operator/remove_from_line',
  pause: 'operator/pause',
  strayPrize: 'operator/stray_prize',
  broadcast: 'operator/broadcast',
  emergencyEnd: 'operator/emergency_end',
  serviceState: 'operator/service_state',
  userMessage: 'operator/user_message',
  user: 'operator/user',
  userStatus: 'operator/user_status',
  numbers: 'operator/numbers',
  kujiBoxes: 'operator/kuji_boxes',
  // Station agents' keys (right `machines`; docs/security.md "Station keys").
  stationKeys: 'operator/station_keys',
  stationKeyIssue: 'operator/station_key_issue',
  stationKeyRotate: 'operator/station_key_rotate',
  stationKeyRevoke: 'operator/station_key_revoke',
  // Station machines and their agents (docs/agent-protocol.md): the agents' state, the machine's controls.
  stationAgents: 'operator/station_agents',
  stationMachine: 'operator/station_machine',
  stationCameras: 'operator/station_cameras',
  /** Per station: its spectators by kind and its recordings' outcome (docs/spectators.md, docs/clips.md). */
  stationFeeds: 'operator/station_feeds',
  /** The money reconciliation of a day (right `money`; docs/operations.md "Money reconciliation"). */
  reconciliation: 'operator/reconciliation',
} as const;

/** The header carrying `Bearer <operator session token>`. */
export const OPERATOR_AUTH_HEADER = 'x-operator-authorization';

const stationId = z.strictObject({ station_id: idSchema });
const stock = z.int(M.notInteger).check(z.gte(0)).check(z.lte(9_999, M.numberTooLarge));
const armStrength = z.number().check(z.gte(0)).check(z.lte(1));
/** The price of one play in TC (or tickets at a ticket station). */
const playPrice = z.int(M.notInteger).check(z.gte(0)).check(z.lte(100_000, M.numberTooLarge));
/** Why the settings change, published with it [R11-6]. */
const settingsReason = z.enum(SETTINGS_CHANGE_REASONS);

export const operatorStationStatusSchema = z.strictObject(
  z.extend(stationId, { station_status: z.enum(STATION_STATUSES) }).shape,
);
export const operatorFaultSchema = stationId;
/** The agents driving stations now, as the console shows them. */
export const operatorStationAgentsSchema = z.strictObject({});
/**
 * One station an agent drives now (on the instance that answers): who the agent is, its heartbeat
 * and round trip, and its last report of the machine (the sensor view; null before its first).
 */
export const stationAgentSchema = z.object({
  station_id: z.int().check(z.positive()),
  key_id: z.string(),
  key_name: z.string(),
  agent_name: z.string(),
  agent_version: z.string(),
  /** The agent's driver as it announced it (`sim`, `gpio`, a vendor's). */
  driver: z.string(),
  /** The agent's address as the server saw it. */
  remote: z.string(),
  connected_at: z.string(),
  last_heard_at: z.string(),
  /** How long ago the agent was last heard, by the server's clock (no skew with the console's). */
  last_heard_ms_ago: z.number().check(z.nonnegative()),
  /** The round trip of its last answered ping, null before the first. */
  round_trip_ms: z.nullable(z.number().check(z.nonnegative())),
  claw: z.nullable(z.enum(AGENT_CLAW_PHASES)),
  sensor: z.nullable(z.enum(['clear', 'blocked'])),
  stopped: z.nullable(z.boolean()),
  outputs: z.array(z.enum(['right', 'back', 'drop', 'credit'])),
  play_id: z.nullable(z.int().check(z.positive())),
});
export type StationAgentWire = z.infer<typeof stationAgentSchema>;
export const operatorStationAgentsResponseSchema = z.object({
  error_code: z.literal(200),
  agents: z.array(stationAgentSchema),
});
/** The stations' cameras now (docs/live-feed.md "Cameras from WHIP"). */
export const operatorStationCamerasSchema = z.strictObject({});
/**
 * One station camera that is published or watched, on whichever instance runs it: whether video
 * comes in now, from what (a WHIP publisher, or the server's painter until the agents publish),
 * its codec as sent, its rate over the last second, its last keyframe, its viewers.
 */
export const stationCameraSchema = z.object({
  station_id: z.int().check(z.positive()),
  camera: z.enum(['front', 'side']),
  publishing: z.boolean(),
  source: z.nullable(z.enum(['whip'])),
  codec: z.nullable(z.string()),
  kbps: z.number().check(z.nonnegative()),
  fps: z.number().check(z.nonnegative()),
  last_keyframe_at: z.nullable(z.string()),
  viewers: z.int().check(z.nonnegative()),
  stills: z.boolean(),
  live: z.boolean(),
  /** Whether a play's recording takes its video now, and why the last one failed (docs/clips.md). */
  recording: z.optional(z.boolean()),
  recording_error: z.optional(z.nullable(z.string())),
  /** Whether its spectators' LL-HLS is encoded now, and what reaches this origin (docs/spectators.md). */
  hls: z.optional(z.boolean()),
  /** HLS requests a second that reached the origin over the last 5 s (behind a cache: its misses). */
  hls_requests_per_s: z.optional(z.number().check(z.nonnegative())),
  /** Still (jpg) asks a second that reached the origin over the last 5 s. */
  stills_requests_per_s: z.optional(z.number().check(z.nonnegative())),
});
export type StationCameraWire = z.infer<typeof stationCameraSchema>;
export const operatorStationCamerasResponseSchema = z.object({
  error_code: z.literal(200),
  cameras: z.array(stationCameraSchema),
});
/** Per station: its spectators by kind and its recordings' outcome. */
export const operatorStationFeedsSchema = z.strictObject({});
const tally = z.int().check(z.nonnegative());
export const stationFeedSchema = z.object({
  station_id: z.int().check(z.positive()),
  /** The pages showing its cameras now, by what they show, counted over every instance (docs/spectators.md). */
  spectators: z.object({ hls: tally, rtc: tally, jpg: tally }),
  /** The clips of its last plays (docs/clips.md): how many of the last `window` plays' clips are in each state. */
  clips: z.object({
    window: tally,
    plays: tally,
    ready: tally,
    failed: tally,
    recording: tally,
    removed: tally,
    /** Plays with no clip at all (no ffmpeg on the instance that ran them). */
    none: tally,
    /** The newest failed clip among them, with why (no_video, recorder, interrupted). */
    last_failure: z.nullable(
      z.object({ play_id: z.int().check(z.positive()), reason: z.nullable(z.string()), at: z.string() }),
    ),
  }),
});
export type StationFeedWire = z.infer<typeof stationFeedSchema>;
export const operatorStationFeedsResponseSchema = z.object({
  error_code: z.literal(200),
  stations: z.array(stationFeedSchema),
});
/**
 * At a station's machine [R11-3]: `emergency_stop` releases every output at once and keeps the
 * station out of service until `resume`; `home` brings the claw home between plays.
 */
export const operatorStationMachineSchema = z.strictObject(
  z.extend(stationId, { action: z.enum(['emergency_stop', 'resume', 'home']) }).shape,
);
export const operatorRestockSchema = z.strictObject(z.extend(stationId, { stock }).shape);
export const operatorArmStrengthSchema = z.strictObject(
  z.extend(stationId, { arm_strength: armStrength, reason: z.optional(settingsReason) }).shape,
);
/** At least one of the arm strength and the price, and why [R11-6]. */
export const operatorStationSettingsSchema = z
  .strictObject(
    z.extend(stationId, {
      arm_strength: z.optional(armStrength),
      play_price: z.optional(playPrice),
      /** Misses in a row before a player may ask for a staff assist; 0: none at this station [R11-9]. */
      assist_misses: z.optional(
        z.int(M.notInteger).check(z.gte(0)).check(z.lte(STAFF_ASSIST_MAX_MISSES, M.numberTooLarge)),
      ),
      reason: settingsReason,
    }).shape,
  )
  .check(
    z.refine(
      (body) => body.arm_strength !== undefined || body.play_price !== undefined || body.assist_misses !== undefined,
      {
        message: M.settingsNothingToChange,
      },
    ),
  );
export const operatorChangePrizeSchema = z.strictObject(
  z.extend(stationId, {
    prize_name: z
      .string()
      .check(z.trim())
      .check(z.minLength(1, M.required(FIELD_LABELS_JA.prize_name!)))
      .check(z.maxLength(100, M.tooLong(FIELD_LABELS_JA.prize_name!, 100)))
      .check(z.refine(isAcceptableText, M.invalidCharacters(FIELD_LABELS_JA.prize_name!))),
    prize_shape: z.enum(['box', 'plush', 'capsule']),
    stock,
    arm_strength: z.optional(armStrength),
    reason: z.optional(settingsReason),
  }).shape,
);
export const operatorPlayLogSchema = z.strictObject({
  station_id: z.optional(idSchema),
  limit: z.optional(z.int().check(z.gte(1)).check(z.lte(500))),
});

export const operatorStationAnswerSchema = z.extend(errorResponseSchema, {
  station: z.object({
    station_id: z.int().check(z.positive()),
    station_status: z.enum(STATION_STATUSES),
    stock: z.int(),
    refunded_play_id: z.nullable(z.int().check(z.positive())),
    /** 1: the settings change waits for the player's run to end [R11-6] (absent on older servers). */
    settings_pending: z.optional(z.union([z.literal(0), z.literal(1)])),
  }),
});
export const operatorPlayLogAnswerSchema = z.extend(errorResponseSchema, { list: z.array(playLogEntrySchema) });

export const operatorKujiBoxStatusSchema = z.strictObject({ box_id: idSchema, box_status: z.enum(KUJI_BOX_STATUSES) });
export const operatorKujiBoxAnswerSchema = z.extend(errorResponseSchema, {
  box: z.object({
    kuji_id: z.int().check(z.positive()),
    box_id: z.int().check(z.positive()),
    box_status: z.enum(KUJI_BOX_STATUSES),
  }),
});

/**
 * Sets a kuji box's stock, rank by rank (the ranks the box has): allowed only before the box opens,
 * since an opened box's ticket order is fixed and committed (docs/kuji.md).
 */
export const operatorKujiBoxStockSchema = z.strictObject({
  box_id: idSchema,
  prizes: z
    .array(z.strictObject({ rank: z.string().check(z.minLength(1)).check(z.maxLength(40)), quantity: stock }))
    .check(z.minLength(1))
    .check(z.maxLength(20)),
});
export const operatorKujiBoxStockAnswerSchema = z.extend(errorResponseSchema, {
  box: z.object({
    box_id: z.int().check(z.positive()),
    prizes: z.array(z.object({ rank: z.string(), quantity: z.int(), remaining: z.int() })),
  }),
});

/** An operator's sign-in (accounts come from `npm run operator -- add …`). */
export const operatorLoginSchema = z.strictObject({
  login: z
    .string()
    .check(z.minLength(1, M.required(FIELD_LABELS_JA.operator_login!)))
    .check(z.maxLength(64)),
  password: z
    .string()
    .check(z.minLength(1, M.required(FIELD_LABELS_JA.password!)))
    .check(z.maxLength(256)),
});
export const operatorSessionSchema = z.strictObject({});
export const operatorAuditSchema = z.strictObject({
  limit: z.optional(z.int(M.notInteger).check(z.gte(1)).check(z.lte(500, M.numberTooLarge))),
  operator_login: z.optional(z.string().check(z.maxLength(64))),
});

/** The signed-in operator: their role and the rights it holds (the console shows only what they allow). */
const operatorSchema = z.object({
  login: z.string(),
  display_name: z.string(),
  role: z.enum(OPERATOR_ROLES),
  rights: z.array(z.enum(OPERATOR_RIGHTS)),
});
export const operatorLoginResponseSchema = z.object({
  error_code: z.literal(200),
  session: z.object({ token: z.string(), expires_at: z.string() }),
  operator: operatorSchema,
});
export const operatorMeResponseSchema = z.object({ error_code: z.literal(200), operator: operatorSchema });
export const operatorAuditResponseSchema = z.object({
  error_code: z.literal(200),
  list: z.array(
    z.object({
      audit_id: z.number(),
      operator_login: z.string(),
      action: z.string(),
      target: z.unknown(),
      before: z.unknown(),
      after: z.unknown(),
      at: z.string(),
    }),
  ),
});

// ---- The console (docs/operator-console.md) ---------------------------------------------------

/** The floor: every station with its line, its play and its viewers (right `floor`). */
export const operatorFloorSchema = z.strictObject({});
const floorStationSchema = z.object({
  station_id: z.int().check(z.positive()),
  station_name: z.string(),
  prize_name: z.string(),
  station_status: z.enum(STATION_STATUSES),
  stock: z.int(),
  /** Paused: the line is kept but no next turn starts until resumed. */
  paused: z.boolean(),
  /** An operator's emergency stop holds: out of service until an operator resumes it [R11-3]. */
  emergency_stopped: z.boolean(),
  /** The settings in force and their version [R11-6] (absent on older servers). */
  arm_strength: z.optional(z.number()),
  play_price: z.optional(z.int().check(z.nonnegative())),
  settings_version: z.optional(z.int().check(z.nonnegative())),
  /** Misses in a row before a staff assist may be asked (0: none) [R11-9]. */
  assist_misses: z.optional(z.int().check(z.nonnegative())),
  /** A staff assist asked and not answered [R11-9]: the turn is held until `ms_left` runs out. */
  assist: z.optional(
    z.nullable(
      z.object({
        play_id: z.int().check(z.positive()),
        user_id: z.int().check(z.positive()),
        nickname: z.string(),
        misses: z.int().check(z.nonnegative()),
        asked_at: z.string(),
        ms_left: z.int().check(z.nonnegative()),
      }),
    ),
  ),
  /** A change waiting for the player's run to end [R11-6]: what it will change, why, since when. */
  pending_settings: z.optional(
    z.nullable(
      z.object({
        changes: z.array(
          z.object({
            field: z.enum(SETTINGS_FIELDS),
            before: z.union([z.number(), z.string()]),
            after: z.union([z.number(), z.string()]),
          }),
        ),
        reason: z.enum(SETTINGS_CHANGE_REASONS),
        requested_at: z.string(),
      }),
    ),
  ),
  viewers: z.int().check(z.nonnegative()),
  line: z.array(
    z.object({
      user_id: z.int().check(z.positive()),
      nickname: z.string(),
      place: z.int().check(z.nonnegative()),
      reserve_status: z.string(),
    }),
  ),
  play: z.nullable(
    z.object({
      play_id: z.int().check(z.positive()),
      user_id: z.int().check(z.positive()),
      nickname: z.string(),
      phase: z.enum(PLAY_PHASES),
      /** Milliseconds left in the current window (reset, turn or continue), null when none runs. */
      ms_left: z.nullable(z.int().check(z.nonnegative())),
      price: z.int().check(z.nonnegative()),
      currency: z.string(),
    }),
  ),
  /**
   * Prizes the chute sensor saw that no running play took (after their play's result, between
   * plays, a second prize of one play), oldest first, until an operator settles them.
   */
  stray_prizes: z.array(
    z.object({
      stray_id: z.int().check(z.positive()),
      /** The play the machine named, and its player (null: none named, or no such play here). */
      play_id: z.nullable(z.int().check(z.positive())),
      user_id: z.nullable(z.int().check(z.positive())),
      nickname: z.nullable(z.string()),
      /** The named play's result (win, miss, refunded), null while it runs or when none. */
      play_result: z.nullable(z.string()),
      seen_at: z.string(),
    }),
  ),
  /** The front camera's still (GET, image/jpeg). */
  still_url: z.string(),
});
export type OperatorFloorStation = z.infer<typeof floorStationSchema>;
export const operatorFloorResponseSchema = z.object({
  error_code: z.literal(200),
  stations: z.array(floorStationSchema),
});

/**
 * Ends that play on the station's machine and refunds it once when unfinished (right `floor`); 409
 * when it is no longer on the machine. An offered turn is withdrawn with remove_from_line.
 */
export const operatorEndPlaySchema = z.strictObject(z.extend(stationId, { play_id: idSchema }).shape);
/**
 * Answers the staff assist asked after that play (right `floor`) [R11-9]: `done` once the prize is
 * put back within reach, or `declined`; 409 when none is asked (answered already, lapsed, ended).
 */
export const operatorAssistAnswerSchema = z.strictObject(
  z.extend(stationId, { play_id: idSchema, answer: z.enum(STAFF_ASSIST_ANSWERS) }).shape,
);
export const operatorAssistAnswerResponseSchema = z.object({
  error_code: z.literal(200),
  assist: z.object({
    station_id: z.int().check(z.positive()),
    play_id: z.int().check(z.positive()),
    answer: z.enum(STAFF_ASSIST_ANSWERS),
  }),
});
/** Removes one player from a station's line (right `floor`); they are told on their user channel. */
export const operatorRemoveFromLineSchema = z.strictObject(z.extend(stationId, { user_id: idSchema }).shape);
export const operatorRemoveFromLineResponseSchema = z.object({
  error_code: z.literal(200),
  removed: z.boolean(),
});
/**
 * Settles a stray prize (right `floor`): `award` puts it in the prize box of the player of the play
 * the machine named (the station's stock goes down by one: the prize has left the machine), `return`
 * records that it was put back in the machine. 409 when already settled, or when there is no
 * player to give it to.
 */
export const operatorStrayPrizeSchema = z.strictObject(
  z.extend(stationId, { stray_id: idSchema, settle: z.enum(['award', 'return']) }).shape,
);
export const operatorStrayPrizeResponseSchema = z.object({
  error_code: z.literal(200),
  stray_id: z.int().check(z.positive()),
  settlement: z.enum(['awarded', 'returned']),
  /** The prize box entry made for the player (award only). */
  play_history_id: z.nullable(z.int().check(z.positive())),
});

/** Pauses (or resumes) a station: the current play runs out, the line waits (right `floor`). */
export const operatorPauseSchema = z.strictObject(z.extend(stationId, { paused: z.boolean() }).shape);
export const operatorPauseResponseSchema = z.object({
  error_code: z.literal(200),
  station: z.object({ station_id: z.int().check(z.positive()), paused: z.boolean() }),
});

/** The service messages an operator sends (§8, §4.6); invaliduser is sent by suspending a user. */
export const SERVICE_MESSAGE_CODES = ['emergency', 'reloaderror', 'cancellation'] as const;
export type ServiceMessageCode = (typeof SERVICE_MESSAGE_CODES)[number];
const serviceInfo = z
  .string()
  .check(z.trim())
  .check(z.maxLength(200, M.tooLong(FIELD_LABELS_JA.service_info!, 200)))
  .check(z.refine(isAcceptableText, M.invalidCharacters(FIELD_LABELS_JA.service_info!)));
/**
 * To everyone (right `broadcast`). emergency also puts the whole service in emergency maintenance:
 * every player call answers it until `emergency_end`.
 */
export const operatorBroadcastSchema = z.strictObject({
  code: z.enum(SERVICE_MESSAGE_CODES),
  info: z.optional(serviceInfo),
});
/** To one user's open clients (right `users`). */
export const operatorUserMessageSchema = z.strictObject({
  user_id: idSchema,
  code: z.enum(SERVICE_MESSAGE_CODES),
  info: z.optional(serviceInfo),
});
export const operatorMessageResponseSchema = z.object({
  error_code: z.literal(200),
  /** How many open connections the push reached (every instance). */
  delivered: z.int().check(z.nonnegative()),
});
export const operatorEmergencyEndSchema = z.strictObject({});
export const operatorServiceStateSchema = z.strictObject({});
export const operatorServiceStateResponseSchema = z.object({
  error_code: z.literal(200),
  emergency: z.nullable(z.object({ info: z.string(), since: z.string(), by: z.string() })),
});

/** One user as support sees them (right `users`). */
export const operatorUserSchema = z.strictObject({ user_id: idSchema });
export const operatorUserStatusSchema = z.strictObject({ user_id: idSchema, suspended: z.boolean() });
export const operatorUserResponseSchema = z.object({
  error_code: z.literal(200),
  user: z.object({
    user_id: z.int().check(z.positive()),
    nickname: z.string(),
    user_status: z.int(),
    suspended: z.boolean(),
    created_at: z.string(),
    tc_balance: z.int(),
  }),
});

/** Plays, wins, TC taken, refunds and assist payouts per station per day (right `numbers`), JST days. */
/** A day of the calendar, YYYY-MM-DD: 2026-02-30 and 1553-50-53 are refused before any query. */
const isoDay = z
  .string()
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, M.invalidDate), z.refine(isCalendarDay, M.dayNotInCalendar));
export const operatorNumbersSchema = z.strictObject({ from: isoDay, to: isoDay });
export const operatorNumbersResponseSchema = z.object({
  error_code: z.literal(200),
  rows: z.array(
    z.object({
      day: z.string(),
      station_id: z.int().check(z.positive()),
      station_name: z.string(),
      plays: z.int().check(z.nonnegative()),
      wins: z.int().check(z.nonnegative()),
      /** wins ÷ plays, 0 when no play. */
      win_rate: z.number().check(z.gte(0)).check(z.lte(1)),
      tc_taken: z.int().check(z.nonnegative()),
      refunds: z.int().check(z.nonnegative()),
      refunded_tc: z.int().check(z.nonnegative()),
      /** Wins at an assist level above 0 (the gauge paid out). */
      assist_payouts: z.int().check(z.nonnegative()),
    }),
  ),
});

/** Every kuji box with its stock per rank and its fairness record (right `kuji`). */
export const operatorKujiBoxesSchema = z.strictObject({});
export const operatorKujiBoxesResponseSchema = z.object({
  error_code: z.literal(200),
  boxes: z.array(
    z.object({
      kuji_id: z.int().check(z.positive()),
      kuji_name: z.string(),
      box_id: z.int().check(z.positive()),
      box_status: z.enum(KUJI_BOX_STATUSES),
      prizes: z.array(z.object({ rank: z.string(), quantity: z.int(), remaining: z.int() })),
      /** The published commitment (hex SHA-256) once the box opened, else null. */
      commitment: z.nullable(z.string()),
      /** The seed, published once the box ended, else null. */
      seed: z.nullable(z.string()),
    }),
  ),
});

// ---- Station agents' keys (right `machines`; docs/security.md "Station keys") ------------------

/** The longest overlap a rotation may give, in minutes (a week). */
export const STATION_KEY_MAX_OVERLAP_MINUTES = 7 * 24 * 60;
export const STATION_KEY_STATES = ['active', 'rotating', 'expired', 'revoked'] as const;
export type StationKeyState = (typeof STATION_KEY_STATES)[number];

const stationKeyId = z.string().check(z.regex(/^[a-z0-9]{12}$/, M.stationKeyIdInvalid));

/** Every key, newest first (no secret, no hash). */
export const operatorStationKeysSchema = z.strictObject({});
/** A new key for the stations named; its secret is answered once, here. */
export const operatorStationKeyIssueSchema = z.strictObject({
  name: z
    .string()
    .check(z.trim())
    .check(z.minLength(1, M.required(FIELD_LABELS_JA.name!)))
    .check(z.maxLength(64, M.tooLong(FIELD_LABELS_JA.name!, 64)))
    .check(z.refine(isAcceptableText, M.invalidCharacters(FIELD_LABELS_JA.name!))),
  station_ids: z
    .array(idSchema)
    .check(z.minLength(1, M.stationKeyStationsRequired))
    .check(z.maxLength(AGENT_MAX_STATIONS, M.stationKeyStationsTooMany(AGENT_MAX_STATIONS))),
});
/** A new key for the same stations; the old one works on for `overlap_minutes` (default a day). */
export const operatorStationKeyRotateSchema = z.strictObject({
  key_id: stationKeyId,
  overlap_minutes: z.optional(
    z
      .int(M.notInteger)
      .check(z.gte(0, M.stationKeyOverlap(STATION_KEY_MAX_OVERLAP_MINUTES)))
      .check(z.lte(STATION_KEY_MAX_OVERLAP_MINUTES, M.stationKeyOverlap(STATION_KEY_MAX_OVERLAP_MINUTES))),
  ),
});
/** Ends a key at once; the agents connected with it are closed. */
export const operatorStationKeyRevokeSchema = z.strictObject({ key_id: stationKeyId });

export const stationKeyEntrySchema = z.object({
  key_id: z.string(),
  name: z.string(),
  station_ids: z.array(z.int().check(z.positive())),
  created_at: z.string(),
  created_by: z.string(),
  /** The end of a rotation's overlap, null for a key not rotated. */
  expires_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
  last_used_at: z.nullable(z.string()),
  /** The key that replaced this one. */
  rotated_to: z.nullable(z.string()),
  /** By the server's clock: rotating = rotated and still working until expires_at. */
  state: z.enum(STATION_KEY_STATES),
});
export type StationKeyEntryWire = z.infer<typeof stationKeyEntrySchema>;
export const operatorStationKeysResponseSchema = z.object({
  error_code: z.literal(200),
  keys: z.array(stationKeyEntrySchema),
});
/** The key made (shown once: the console keeps it nowhere) and its row as listed. */
export const operatorStationKeyIssuedResponseSchema = z.object({
  error_code: z.literal(200),
  key: z.string(),
  entry: stationKeyEntrySchema,
});
export const operatorStationKeyRevokedResponseSchema = z.object({
  error_code: z.literal(200),
  entry: stationKeyEntrySchema,
});

/** A day's money reconciliation: the kept run, or a new run with `run: 1`; and the latest runs. */
export const operatorReconciliationSchema = z.strictObject({
  day: z.optional(isoDay),
  run: z.optional(z.union([z.literal(0), z.literal(1)])),
});
const count = z.int().check(z.nonnegative());
export const reconciliationMismatchSchema = z.object({
  kind: z.enum(RECONCILIATION_MISMATCH_KINDS),
  reference: z.string(),
  userId: z.nullable(z.int()),
  expected: z.number(),
  found: z.number(),
  unit: z.enum(RECONCILIATION_UNITS),
});
export const reconciliationReportSchema = z.object({
  day: z.string(),
  from: z.string(),
  to: z.string(),
  settlements: z.object({
    completed: z.object({ count, yen: count, tollTc: count, freeTc: count, tickets: count }),
    opened: count,
    failed: count,
    cancelled: count,
  }),
  provider: z.object({ paid: z.object({ count, yen: count }), unpaid: count }),
  ledger: z.object({
    purchaseTollTc: z.number(),
    purchaseFreeTc: z.number(),
    purchaseTickets: z.number(),
    deliveryFeeTc: z.number(),
  }),
  deliveries: z.object({ requests: count, feeTc: count, refundedTc: z.number() }),
  mismatches: z.array(reconciliationMismatchSchema),
});
export const operatorReconciliationResponseSchema = z.object({
  error_code: z.literal(200),
  runs: z.array(z.object({ day: z.string(), ranAt: z.string(), mismatches: count })),
  day: z.string(),
  ran_at: z.nullable(z.string()),
  report: z.nullable(reconciliationReportSchema),
});
