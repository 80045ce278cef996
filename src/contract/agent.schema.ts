import { z } from 'zod/mini';
import { AGENT_CLAW_PHASES, type AgentClawPhase } from '../domain/play/claw-phases';

/*
 * The station agent protocol, version 1 (docs/agent-protocol.md; the JSON Schema of every message
 * is generated from here into docs/agent-protocol.schema.json by `npm run agent:schema`).
 *
 * An agent is the process beside one or more cabinets that drives their controls and reads their
 * sensors. It dials out to the server over WebSocket (`/agent`), sends `hello` with its station key
 * first, and then exchanges one JSON message per text frame. The server is the only one that
 * decides about plays; the agent carries out commands and reports what the machine does. The win
 * is the chute sensor's `prize`.
 */

/** The protocol version this code speaks; a hello with another is closed 4426. */
export const AGENT_PROTOCOL_VERSION = 1;

/** The path agents dial on any server instance. */
export const AGENT_PATH = '/agent';

/**
 * The bounds both sides keep, nested so that each side acts before the one that relies on it:
 * the server pings every `heartbeatMs`; an agent that hears no ping for `watchdogMs` releases every
 * output; the server counts a station faulty after `silenceMs` without a pong.
 */
export const AGENT_TIMINGS = {
  heartbeatMs: 500,
  watchdogMs: 1_000,
  silenceMs: 3_000,
  /** The hello must come within this after the socket opens. */
  helloMs: 5_000,
  /** A button held longer than this is released by the agent itself (the machine's own limit). */
  holdLimitMs: 20_000,
  /**
   * A prize the chute sensor sees within this after the claw came home is still the last play's
   * (agents name it in `prize`); the server records a result 1.5 s after the claw is home.
   */
  prizeWaitMs: 10_000,
} as const;

/** Commands the server sends one connection per second, at most (per station). */
export const AGENT_COMMANDS_PER_SECOND = 25;
/**
 * Frames an agent may send per second and per station it serves, on average over a second, before
 * it is closed 4429 (a simulated cabinet reports its claw every 50 ms while it moves, 20 a second).
 */
export const AGENT_FRAMES_PER_STATION_SECOND = 100;
/** The largest frame either side sends (a sim field with its prizes is well under 8 KB). */
export const AGENT_MAX_FRAME_BYTES = 64 * 1024;
/** Stations one agent may serve. */
export const AGENT_MAX_STATIONS = 64;

/** Close codes: 1000 a normal end; 4xxx say what was wrong (the agent reconnects only where noted). */
export const AGENT_CLOSE = {
  normal: 1000,
  /** A frame that is not JSON or not a message of this protocol. */
  badMessage: 4400,
  /** The key is unknown, revoked or past its rotation window (do not reconnect with it). */
  badKey: 4401,
  /** The key does not name a station the hello asks for (do not reconnect with it). */
  forbiddenStation: 4403,
  /** No hello in time, or no pong for the silence bound (reconnect). */
  timeout: 4408,
  /** Another connection took over a station of this one (do not reconnect: two agents fight). */
  replaced: 4409,
  /** The protocol version is not spoken here (do not reconnect until upgraded). */
  unsupportedVersion: 4426,
  /** Too many frames (reconnect after a pause). */
  flood: 4429,
  /** The server instance is going away (reconnect; another instance takes the agent). */
  goingAway: 4503,
} as const;
export type AgentCloseCode = (typeof AGENT_CLOSE)[keyof typeof AGENT_CLOSE];

// ---- shared pieces ------------------------------------------------------------------------------

const stationId = z.int().check(z.positive(), z.lte(2_147_483_647));
const playId = z.int().check(z.positive());
/** A message number: per connection and per direction, strictly increasing from 1. */
const seq = z.int().check(z.positive());
/** A sender's monotonic clock in milliseconds (only differences mean anything). */
const clockMs = z.number().check(z.nonnegative());
const shortText = z.string().check(z.maxLength(200));

export const AGENT_BUTTONS = ['right', 'back'] as const;
export type AgentButton = (typeof AGENT_BUTTONS)[number];

export { AGENT_CLAW_PHASES, type AgentClawPhase };

export const AGENT_FAULT_CODES = [
  'motor',
  'sensor_stuck',
  'door_open',
  'power',
  /** The agent's own watchdog released the outputs (no ping from the server in time). */
  'watchdog',
  /** A button was held past the machine's own limit and released by the agent. */
  'hold_limit',
  /** The driver failed (a GPIO line could not be set, a helper process died). */
  'driver',
  'other',
] as const;
export type AgentFaultCode = (typeof AGENT_FAULT_CODES)[number];

/** Why the agent refused a command. */
export const AGENT_REFUSALS = [
  /** The sequence number is not above the last one carried out (a replay or a reorder). */
  'stale',
  /** The opposite direction is pressed. */
  'interlock',
  /** The machine is not in a phase that takes this command. */
  'not_ready',
  /** The chute sensor is blocked: no play starts. */
  'sensor_blocked',
  /** Emergency-stopped: nothing moves until `resume`. */
  'stopped',
  /** The station is not served by this agent. */
  'unknown_station',
  /** The driver could not carry it out. */
  'driver',
] as const;
export type AgentRefusal = (typeof AGENT_REFUSALS)[number];

/** A prize lying on the field (driver `sim` only: the simulated cabinet's field, for its cameras and replay). */
export const simPrizeSchema = z.object({
  id: z.int().check(z.nonnegative()),
  x: z.number(),
  z: z.number(),
  radius: z.number().check(z.positive()),
  shape: z.enum(['box', 'plush', 'capsule']),
  hue: z.number(),
});

/** The claw's position (driver `sim`, or a cabinet with position feedback): field units, height 0 top…1 floor. */
export const clawPositionSchema = z.object({
  x: z.number(),
  z: z.number(),
  h: z.number().check(z.gte(0), z.lte(1)),
  grip: z.number().check(z.gte(0), z.lte(1)),
});

// ---- server → agent ----------------------------------------------------------------------------

/** The hello was accepted: the stations this connection drives now, and the bounds to keep. */
export const welcomeMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('welcome'),
  /** The key's id (never the key). */
  key_id: z.string().check(z.maxLength(64)),
  stations: z.array(stationId).check(z.maxLength(AGENT_MAX_STATIONS)),
  heartbeat_ms: z.int().check(z.positive()),
  watchdog_ms: z.int().check(z.positive()),
  silence_ms: z.int().check(z.positive()),
  commands_per_second: z.int().check(z.positive()),
});

/** The server's heartbeat; the agent answers `pong` with the same `t` at once. */
export const pingMessage = z.object({ v: z.literal(AGENT_PROTOCOL_VERSION), type: z.literal('ping'), t: clockMs });

/** What a command asks of one station's machine. */
export const agentCommandSchema = z.discriminatedUnion('type', [
  /**
   * A play starts (it is charged): the machine takes a credit and waits for →. Refused
   * `sensor_blocked` while the chute sensor is blocked, `not_ready` while the claw is not home.
   */
  z.object({
    type: z.literal('start'),
    play_id: playId,
    /** The arm strength for this play, 0…1 (a cabinet without the setting ignores it). */
    arm_strength: z.number().check(z.gte(0), z.lte(1)),
    /** For driver `sim`: the seed of its draws and the field to lay (the server restocks the simulated cabinet). */
    sim: z.optional(z.object({ seed: z.int(), layout: z.array(simPrizeSchema).check(z.maxLength(16)) })),
  }),
  z.object({ type: z.literal('press'), play_id: playId, button: z.enum(AGENT_BUTTONS) }),
  z.object({ type: z.literal('release'), play_id: playId, button: z.enum(AGENT_BUTTONS) }),
  /** Drop the claw where it is (the player let the time run out while away). */
  z.object({ type: z.literal('drop'), play_id: playId }),
  /** Bring the claw home (gantry reset); the agent reports `idle` when it is. */
  z.object({ type: z.literal('home') }),
  /** Emergency stop: release every output at once and take no command but `resume` and `home`. */
  z.object({ type: z.literal('stop') }),
  /** Ends an emergency stop. */
  z.object({ type: z.literal('resume') }),
]);
export type AgentCommand = z.infer<typeof agentCommandSchema>;
export type AgentCommandType = AgentCommand['type'];

export const commandMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('command'),
  seq,
  station_id: stationId,
  command: agentCommandSchema,
});

/** The station cameras an agent may publish (docs/agent-protocol.md "Cameras"). */
export const AGENT_CAMERAS = ['front', 'side'] as const;
export type AgentCamera = (typeof AGENT_CAMERAS)[number];
/** How long a `cameras` lease lasts, and how often the server renews a lease it still wants. */
export const CAMERA_LEASE = { leaseMs: 15_000, renewMs: 5_000 } as const;

/**
 * Which of a station's cameras someone watches now (rtc viewers or stills), for an agent that
 * announced `cameras` for the station: it publishes those over WHIP (POST /whip/{station}/{camera}
 * on the server's address, with its key as Bearer) until `lease_ms` after the last such message.
 * An empty list ends the lease at once. Real cameras (OBS, a phone) publish on their own.
 */
export const camerasMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('cameras'),
  station_id: stationId,
  cameras: z.array(z.enum(AGENT_CAMERAS)).check(z.maxLength(2)),
  lease_ms: z.int().check(z.positive(), z.lte(60_000)),
});
export type AgentCamerasMessage = z.infer<typeof camerasMessage>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  welcomeMessage,
  pingMessage,
  commandMessage,
  camerasMessage,
]);
export type AgentServerMessage = z.infer<typeof serverMessageSchema>;

// ---- agent → server ----------------------------------------------------------------------------

/** What one station can do (what its driver and wiring offer). */
export const stationCapabilitiesSchema = z.object({
  station_id: stationId,
  /** The cabinet reports the claw's position (`claw` in `state`). */
  position: z.boolean(),
  /** The cabinet reports the phases between dropping and idle. */
  phases: z.boolean(),
  /** A chute sensor is wired (without one no play can be won: the server keeps the station closed). */
  chute_sensor: z.boolean(),
  /** The arm strength can be set per play. */
  arm_strength: z.boolean(),
  /**
   * The agent publishes this station's cameras over WHIP when the server asks (`cameras`): the sim
   * driver's painted cameras. Absent or false: the station's cameras publish on their own.
   */
  cameras: z.optional(z.boolean()),
});

/** The first frame: who the agent is and which stations it serves. */
export const helloMessage = z.object({
  v: z.int().check(z.positive()),
  type: z.literal('hello'),
  /** The station key, as the console showed it once. */
  key: z.string().check(z.minLength(20), z.maxLength(200)),
  agent: z.object({
    name: z.string().check(z.minLength(1), z.maxLength(64)),
    version: z.string().check(z.maxLength(32)),
  }),
  driver: z.string().check(z.minLength(1), z.maxLength(32)),
  stations: z.array(stationCapabilitiesSchema).check(z.minLength(1), z.maxLength(AGENT_MAX_STATIONS)),
});

/** The answer to a ping: the server's `t` back, and the agent's own clock. */
export const pongMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('pong'),
  t: clockMs,
  at: clockMs,
});

/** A command's outcome: carried out, or refused with a reason (nothing changed). */
export const ackMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('ack'),
  seq,
  station_id: stationId,
  /** The command's `seq`. */
  command_seq: seq,
  ok: z.boolean(),
  reason: z.optional(z.enum(AGENT_REFUSALS)),
  /** Driver `sim`: the machine's tick the command took effect at (the play's log replays from it). */
  tick: z.optional(z.int().check(z.nonnegative())),
});

/** What a station's machine is doing now: sent on every change, and at least once after welcome. */
export const stateMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('state'),
  seq,
  station_id: stationId,
  at: clockMs,
  /** The play the machine runs (the last `start`), or null between plays. */
  play_id: z.nullable(playId),
  claw: z.enum(AGENT_CLAW_PHASES),
  /** The chute sensor: `blocked` between plays means a prize or a hand is in the chute. */
  sensor: z.enum(['clear', 'blocked']),
  /** Emergency-stopped: every output released until `resume`. */
  stopped: z.boolean(),
  /** Outputs energised now (for the console's sensor view). */
  outputs: z.array(z.enum(['right', 'back', 'drop', 'credit'])).check(z.maxLength(4)),
  claw_position: z.optional(clawPositionSchema),
  /** Driver `sim`: the machine's tick and the field as it lies now (for the server's cameras until they leave it). */
  sim: z.optional(
    z.object({ tick: z.int().check(z.nonnegative()), prizes: z.array(simPrizeSchema).check(z.maxLength(16)) }),
  ),
});

/** The chute sensor saw a prize fall: the win of `play_id`. */
export const prizeMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('prize'),
  seq,
  station_id: stationId,
  /** The play the machine ran when the sensor fired (null: none — a prize fell between plays). */
  play_id: z.nullable(playId),
  at: clockMs,
  /** Driver `sim`: the prize that fell. */
  prize_id: z.optional(z.int().check(z.nonnegative())),
});

/** The machine cannot play: the server stops the play (refunded once) and offers no turn until `state` says idle and clear. */
export const faultMessage = z.object({
  v: z.literal(AGENT_PROTOCOL_VERSION),
  type: z.literal('fault'),
  seq,
  station_id: stationId,
  code: z.enum(AGENT_FAULT_CODES),
  text: shortText,
});

export const agentMessageSchema = z.discriminatedUnion('type', [
  helloMessage,
  pongMessage,
  ackMessage,
  stateMessage,
  prizeMessage,
  faultMessage,
]);
export type AgentMessage = z.infer<typeof agentMessageSchema>;
export type AgentHello = z.infer<typeof helloMessage>;
export type AgentState = z.infer<typeof stateMessage>;
export type AgentAck = z.infer<typeof ackMessage>;
export type AgentPrize = z.infer<typeof prizeMessage>;
export type AgentFault = z.infer<typeof faultMessage>;
export type AgentWelcome = z.infer<typeof welcomeMessage>;
export type AgentCommandMessage = z.infer<typeof commandMessage>;
export type StationCapabilities = z.infer<typeof stationCapabilitiesSchema>;
export type SimPrize = z.infer<typeof simPrizeSchema>;

/** The messages as JSON Schema (draft 2020-12), for docs/agent-protocol.schema.json. */
export function agentProtocolJsonSchema(): Record<string, unknown> {
  const of = (schema: z.ZodMiniType) => z.toJSONSchema(schema, { io: 'input' });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `onkure station agent protocol v${AGENT_PROTOCOL_VERSION}`,
    version: AGENT_PROTOCOL_VERSION,
    path: AGENT_PATH,
    timings: AGENT_TIMINGS,
    close_codes: AGENT_CLOSE,
    limits: {
      commands_per_second: AGENT_COMMANDS_PER_SECOND,
      frames_per_station_second: AGENT_FRAMES_PER_STATION_SECOND,
      max_frame_bytes: AGENT_MAX_FRAME_BYTES,
      max_stations: AGENT_MAX_STATIONS,
    },
    agent_to_server: of(agentMessageSchema),
    server_to_agent: of(serverMessageSchema),
  };
}
