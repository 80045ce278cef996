import { randomUUID } from 'node:crypto';
import { z } from 'zod/mini';
import type { Server as SocketIOServer, Socket } from 'socket.io';
import {
  CHANNELS,
  controlCommandSchema,
  identitySchema,
  type ClientToServerEvents,
  type ControlAck,
  type JoinAck,
  type PlayState,
  type PushMessage,
  type RealtimeUpdate,
  type ServerToClientEvents,
  type WinnerAnnouncement,
  type ChatMessageWire,
  type ServiceMessagePush,
  watchingMessageSchema,
} from '../../src/contract';
import { operatorRoleAllows, type StationLiveState, type StationStatus } from '../../src/domain';
import type { IdentityService } from '../auth/identity';
import { ERROR_INFO, INVALID_USER_INFO } from '../messages';
import { SUSPENDED_STATUS } from '../auth/identity';
import type { PlayEvents } from '../play/rooms/play-ports';
import type { Rooms } from '../rooms/kinds';
import type { MemoryAttemptLimiter } from '../limits/memory-attempt-limiter';
import { atStation, expectReply } from '../http/room-answers';
import { asRefusal } from '../http/route';
import { SERVER_MESSAGES } from '../messages';
import type { OperatorPrincipal } from '../operator/operator-accounts';
import { MAINTENANCE_EXEMPT_STATUS, type ServicePushes, type ServiceTarget } from '../operator/service-messages';
import type { SqlExecutor } from '../store/store';
import { systemClock, type Clock, type ScheduledTask } from '../clock';
import { instanceViews } from './instance-views';
import { connectionLogId, withLogContext, type EventLog } from '../logging/log-context';
import { instanceSpectatorsSchema, SpectatorTally, sumSpectators, type SpectatorCounts } from './spectator-tally';

interface SocketData {
  /** The signed-in user the handshake proved, or null for a guest. */
  userId: number | null;
  token: string | null;
  /** A console connection: the operator session token its handshake proved (no user then). */
  operatorToken: string | null;
  /** A status-3 user: no service push reaches this connection [R4.1-2]. */
  exempt?: boolean;
}
type HubServer = SocketIOServer<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** At most this many channels per connection (top, the configured one, a station, a kuji box, the user). */
const MAX_CHANNELS_PER_SOCKET = 8;

/** The instances' event for the consoles' spectator counts. */
export const SPECTATOR_VIEWS = 'onkure:spectator-views';

const refused = (code: 400 | 401 | 403 | 404 | 409, info: string = ERROR_INFO[code]) => ({
  ok: false as const,
  error_code: code,
  error_info: info,
});

/**
 * The real-time socket (spec §7, R7-10, R7-11): channels top and the configured one, the user
 * channel (only its own user may join: the handshake carries the identity and the server checks
 * it, and checks the token again on every join of it and every control), station channels with
 * reserve_change=1 and the play on the machine, kuji box channels with play_end=1, and updates
 * carrying maintenance, list and get. Controls travel here with acknowledgements. A user with no
 * connection left is away for the play loop (its grace window); a new connection brings them back.
 */
export class RealtimeHub implements PlayEvents, ServicePushes {
  private readonly io: HubServer;
  /** How a console's handshake token is checked (the operator accounts); none: consoles are refused. */
  private verifyOperator: ((token: string) => Promise<OperatorPrincipal | null>) | null = null;
  /** The play phase each station's floor last showed (a change tells the consoles). */
  private readonly floorPhases = new Map<number, string>();
  private readonly sockets = new Map<number, Set<string>>();
  /** Users whose last connection here closed, while the other instances are asked for theirs. */
  private readonly leaving = new Map<number, Promise<void>>();
  /** What each connection's page shows of a station's cameras (docs/spectators.md "Counting spectators"). */
  private readonly tally = new SpectatorTally();
  /** Each station's spectators by kind, summed over every instance's connections. */
  readonly spectators: () => Promise<SpectatorCounts[]>;
  /** The lobby's numbers of each station: when it last went out, and the update waiting to (≤ 1 a second). */
  private readonly listSent = new Map<number, { at: number; waiting: ScheduledTask | null }>();
  private readonly listClock: Clock;

  constructor(
    io: SocketIOServer,
    private readonly identity: IdentityService,
    private readonly rooms: Rooms,
    /** At most 25 crane commands a second per player, counted before anything else is done with one. */
    private readonly controlRate: MemoryAttemptLimiter,
    private readonly db: SqlExecutor,
    private readonly configuredChannel: string,
    private readonly log: (message: string, error?: unknown) => void,
    /** Several instances: the spectator counts gather every instance's (one not answering within 1 s is left out). */
    cluster: { readonly clock: Clock; readonly distributed: boolean } | null = null,
    /** Where connections and their events are logged (the server's logger); none: not logged. */
    private readonly events: EventLog | null = null,
  ) {
    this.io = io as unknown as HubServer;
    this.listClock = cluster?.clock ?? systemClock;
    const instance = randomUUID();
    const gather = cluster
      ? instanceViews({
          io,
          event: SPECTATOR_VIEWS,
          distributed: cluster.distributed,
          clock: cluster.clock,
          row: instanceSpectatorsSchema,
          key: (row) => `${row.instance}:${row.station_id}`,
          here: () => this.tally.rows().map((row) => ({ instance, ...row })),
        })
      : async () => this.tally.rows();
    this.spectators = async () => sumSpectators(await gather());
    this.io.use((socket, next) => {
      void this.handshake(socket).then(
        () => next(),
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    });
    this.io.on('connection', (socket) => this.connected(socket));
  }

  /** Consoles may connect (the operator floor channel) once operator sessions can be checked. */
  setOperatorCheck(verify: (token: string) => Promise<OperatorPrincipal | null>): void {
    this.verifyOperator = verify;
  }

  /**
   * A guest sends no auth; a user sends { user_id, access_token }, which must be valid; a console
   * sends { operator_token }, an operator session whose role may see the floor.
   */
  private async handshake(socket: HubSocket): Promise<void> {
    socket.data.userId = null;
    socket.data.token = null;
    socket.data.operatorToken = null;
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    if (!auth || Object.keys(auth).length === 0) return;
    if (Object.keys(auth).length === 1 && typeof auth.operator_token === 'string') {
      const token = auth.operator_token;
      const operator = token.length <= 200 && this.verifyOperator ? await this.verifyOperator(token) : null;
      if (!operator || !operatorRoleAllows(operator.role, 'floor')) throw new Error(ERROR_INFO[403]);
      socket.data.operatorToken = token;
      return;
    }
    const parsed = identitySchema.safeParse(auth);
    const user = parsed.success
      ? await this.identity.authenticate(parsed.data.user_id, parsed.data.access_token)
      : null;
    if (!user) throw new Error(ERROR_INFO[401]);
    // A suspended user is told so by every call (9002); a socket is not theirs to open.
    if (user.status === SUSPENDED_STATUS) throw new Error(INVALID_USER_INFO);
    socket.data.userId = user.user_id;
    socket.data.token = parsed.data!.access_token;
    // Status-3 users ignore maintenance pushes [R4.1-2]: they are kept out of every service push.
    if (user.status === MAINTENANCE_EXEMPT_STATUS) socket.data.exempt = true;
  }

  /** The connection's user is still signed in and not suspended (checked again on every join of theirs and every control). */
  private async stillSignedIn(socket: HubSocket): Promise<boolean> {
    const { userId, token } = socket.data;
    if (userId === null || token === null) return false;
    const user = await this.identity.authenticate(userId, token);
    return user !== null && user.status !== SUSPENDED_STATUS;
  }

  private connected(socket: HubSocket): void {
    const userId = socket.data.userId;
    // Each connection's lines carry an id of its own, and each of its events the event's name
    // (docs/operations.md "Logs"); socket.io's id is never logged (it opens the polling session).
    const conn = connectionLogId();
    const role = socket.data.operatorToken !== null ? 'console' : userId !== null ? 'player' : 'guest';
    this.events?.info({ conn, userId, role }, 'socket connected');
    socket.use(([event], next) =>
      withLogContext({ conn, socketEvent: typeof event === 'string' ? event : 'other' }, () => {
        this.events?.debug({ conn, userId }, 'socket event');
        next();
      }),
    );
    socket.on('disconnect', (reason) => this.events?.info({ conn, userId, reason }, 'socket closed'));
    if (socket.data.operatorToken !== null) void socket.join(CONSOLE_ROOM);
    if (userId !== null) {
      const mine = this.sockets.get(userId) ?? new Set<string>();
      mine.add(socket.id);
      this.sockets.set(userId, mine);
      // Every signed-in socket is in its user's internal room (not a channel a client may join), so
      // sessions can be ended and presence counted on every instance.
      void socket.join(sessionRoom(userId));
      if (socket.data.exempt) void socket.join(EXEMPT_ROOM);
      this.tellRoom(userId, 'back');
    }
    socket.on(
      'join',
      (channel, ack) =>
        void this.join(socket, channel).then(
          (answer) => reply(ack, answer),
          (error: unknown) => this.failed(ack, error),
        ),
    );
    socket.on('leave', (channel, ack) => {
      // Only a channel a client may join: the internal rooms (a user's sessions, the consoles, the
      // status-3 exemption) are the server's, so a suspended user cannot slip out of being ended.
      if (
        typeof channel === 'string' &&
        (joinable(channel, this.configuredChannel) || channel === CHANNELS.operatorFloor)
      ) {
        void socket.leave(channel);
        // A page that left the station's channel no longer watches it.
        const report = this.tally.reportOf(socket.id);
        if (report && channel === CHANNELS.station(report.stationId)) this.tally.drop(socket.id);
      }
      reply(ack, { ok: true });
    });
    socket.on('watching', (message, ack) => reply(ack, this.watching(socket, message)));
    socket.on(
      'control',
      (message, ack) =>
        void this.control(socket, message).then(
          (answer) => reply(ack, answer),
          (error: unknown) => this.failed(ack, error),
        ),
    );
    socket.on('disconnect', () => {
      // A closed tab, or a socket that stopped answering its pings, watches no more.
      this.tally.drop(socket.id);
      if (userId === null) return;
      const leftAt = this.listClock.now();
      const mine = this.sockets.get(userId);
      mine?.delete(socket.id);
      if (!mine || mine.size === 0) {
        this.sockets.delete(userId);
        const check = this.awayIfGone(userId, leftAt)
          .catch((error: unknown) => this.log('presence check failed', error))
          .finally(() => {
            if (this.leaving.get(userId) === check) this.leaving.delete(userId);
          });
        this.leaving.set(userId, check);
      }
    });
  }

  private failed(ack: unknown, error: unknown): void {
    this.log('realtime call failed', error);
    reply(ack, { ok: false, error_code: 500, error_info: ERROR_INFO[500] });
  }

  private async join(socket: HubSocket, channel: unknown): Promise<JoinAck> {
    if (typeof channel !== 'string' || channel.length > 64) return refused(400);
    if (channel === CHANNELS.operatorFloor) {
      // Only a console connection, whose session is still live and still allowed the floor.
      const token = socket.data.operatorToken;
      const operator = token && this.verifyOperator ? await this.verifyOperator(token) : null;
      if (!operator || !operatorRoleAllows(operator.role, 'floor')) return refused(403);
      await socket.join(channel);
      return { ok: true };
    }
    const user = /^user:(\d{1,10})$/.exec(channel);
    if (!joinable(channel, this.configuredChannel)) return refused(404);
    if (user && (Number(user[1]) !== socket.data.userId || !(await this.stillSignedIn(socket)))) return refused(403);
    if (!socket.rooms.has(channel) && socket.rooms.size > MAX_CHANNELS_PER_SOCKET) return refused(400);
    await socket.join(channel);
    const station = /^station:(\d+)$/.exec(channel);
    // A viewer joining a station sees the play on its machine at once.
    if (station) {
      const view = await this.rooms.sendIfRunning('station', Number(station[1]), { type: 'view' });
      if (view?.kind === 'play' && view.play) socket.emit('play_state', view.play);
    }
    return { ok: true };
  }

  /**
   * A page says what it shows of a station's cameras (docs/spectators.md "Counting spectators"):
   * one report per connection (a new one replaces it), its kind one of a fixed few, for a station
   * whose channel the connection has joined; null withdraws it. Guests count too; consoles do not.
   */
  private watching(socket: HubSocket, message: unknown): JoinAck {
    if (socket.data.operatorToken !== null) return refused(403);
    if (message === null) {
      this.tally.drop(socket.id);
      return { ok: true };
    }
    const parsed = watchingMessageSchema.safeParse(message);
    if (!parsed.success) return refused(400);
    const { station_id: stationId, kind } = parsed.data;
    if (!socket.rooms.has(CHANNELS.station(stationId))) return refused(409, SERVER_MESSAGES.watchingNotJoined);
    this.tally.set(socket.id, stationId, kind);
    return { ok: true };
  }

  private async control(socket: HubSocket, message: unknown): Promise<ControlAck> {
    if (socket.data.userId === null) return refused(401);
    const parsed = z.strictObject(controlCommandSchema.shape).safeParse(message);
    if (!parsed.success) return refused(400);
    if (!(await this.stillSignedIn(socket))) return refused(401);
    const userId = socket.data.userId;
    if (!this.controlRate.tryAcquire(String(userId)))
      return { ok: false, error_code: 429, error_info: SERVER_MESSAGES.controlTooFast };
    try {
      const { play_id: playId, button, command } = parsed.data;
      const answer = await atStation(
        null,
        this.rooms.sendToUser('station', userId, { type: 'control', userId, playId, button, command }),
      );
      if (answer === null) return { ok: false, error_code: 403, error_info: SERVER_MESSAGES.notYourPlay };
      const done = expectReply(answer, 'control');
      return { ok: true, tick: done.tick, machine: done.machine };
    } catch (error) {
      const refusal = asRefusal(error);
      if (refusal) return { ok: false, error_code: refusal.code, error_info: refusal.info };
      throw error;
    }
  }

  /** The player's presence changed: a play waiting for them runs on (back), or waits in its grace window (away). */
  private tellRoom(userId: number, type: 'away' | 'back'): void {
    this.rooms
      .sendToUser('station', userId, { type, userId })
      .catch((error: unknown) => this.log('station room step failed', error));
  }

  /** The pages connected here that report watching a station, by station and kind (metrics). */
  spectatorsHere(): SpectatorCounts[] {
    return this.tally.rows();
  }

  /** How many connections this instance holds (tests, health, metrics). */
  connectionCount(): number {
    return this.io.of('/').sockets.size;
  }

  /** Whether a user has a live connection here, or its closing is still being settled (tests wait on it). */
  isConnected(userId: number): boolean {
    return (this.sockets.get(userId)?.size ?? 0) > 0 || this.leaving.has(userId);
  }

  /**
   * The user's last connection here closed: they are away for the play loop only if no instance
   * holds another one (with several instances the player may have a tab on each), checked again
   * here after the answer in case they came back meanwhile. Gone, they watch no station either:
   * their visit ends (the viewer counts), unless it was renewed after `leftAt` — a reloaded page
   * visits again, maybe before this check ends (docs/fair-play.md "Live lobby numbers").
   */
  private async awayIfGone(userId: number, leftAt: Date): Promise<void> {
    const elsewhere = await this.io.in(sessionRoom(userId)).fetchSockets();
    if (elsewhere.length > 0 || this.sockets.has(userId)) return;
    this.tellRoom(userId, 'away');
    const ended = await this.db.query<{ station_id: number }>(
      'UPDATE station_visits SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL AND last_seen_at <= $3 RETURNING station_id',
      [userId, this.listClock.now().toISOString(), leftAt.toISOString()],
    );
    for (const { station_id } of ended) this.stationListChanged(station_id);
  }

  /**
   * Of these users, the ones with a live connection on any instance (the visit sweep: a visit
   * whose player has none is over).
   */
  async connectedUsers(userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const sockets = await this.io.in(userIds.map(sessionRoom)).fetchSockets();
    return new Set(sockets.map((s) => s.data.userId).filter((id): id is number => id !== null));
  }

  // ---- PlayEvents ----------------------------------------------------------------------------

  lineChanged(stationId: number): void {
    this.io.to(CHANNELS.station(stationId)).emit('reserve_change', { station_id: stationId, reserve_change: 1 });
    this.floorChanged(stationId);
    this.stationListChanged(stationId);
  }

  playState(stationId: number, state: PlayState): void {
    this.io.to(CHANNELS.station(stationId)).emit('play_state', state);
    // The consoles hear of a new phase (reset, play, result, ended), not of every tick.
    const phase = `${state.play_id}:${state.phase}`;
    if (this.floorPhases.get(stationId) !== phase) {
      this.floorPhases.set(stationId, phase);
      this.floorChanged(stationId);
    }
  }

  /** Tells the consoles' floors that a station changed (its line, play, status, pause or stock). */
  floorChanged(stationId: number): void {
    this.io.to(CHANNELS.operatorFloor).emit('floor_change', { station_id: stationId });
  }

  /**
   * A service message (§8, §4.6) to every connection, or to one user's on every instance, but
   * never to a status-3 user's [R4.1-2]; answers how many connections it reached.
   */
  async servicePush(target: ServiceTarget, push: ServiceMessagePush): Promise<number> {
    // Consoles are not players: they are never told to show the maintenance screen.
    const to =
      target.kind === 'everyone'
        ? this.io.except([EXEMPT_ROOM, CONSOLE_ROOM])
        : this.io.in(sessionRoom(target.userId)).except(EXEMPT_ROOM);
    const reached = (await to.fetchSockets()).length;
    to.emit('service', push);
    return reached;
  }

  push(userId: number, push: PushMessage): void {
    this.io.to(CHANNELS.user(userId)).emit('push', push);
  }

  reserveCancelled(userId: number, stationId: number, reason: string): void {
    this.io.to(CHANNELS.user(userId)).emit('crane_reserve_cancel', { station_id: stationId, reason });
  }

  stationStatus(stationId: number, status: StationStatus): void {
    this.update({ maintenance: { station_id: stationId, station_status: status } });
    this.floorChanged(stationId);
    this.stationListChanged(stationId);
  }

  winner(announcement: WinnerAnnouncement): void {
    this.update({ get: announcement });
  }

  /** A kuji box ended (sold out, sale over, back to ready, deleted): play_end=1 on its channel [R7-11]. */
  /** A kuji box's line changed: everyone watching the box polls again. */
  kujiLineChanged(kujiId: number, boxId: number): void {
    this.io
      .to(CHANNELS.kujiBox(kujiId, boxId))
      .emit('kuji_reserve_change', { kuji_id: kujiId, box_id: boxId, reserve_change: 1 });
  }

  kujiBoxEnded(kujiId: number, boxId: number): void {
    this.io.to(CHANNELS.kujiBox(kujiId, boxId)).emit('play_end', { kuji_id: kujiId, box_id: boxId, play_end: 1 });
  }

  /** A support-chat message on the user channel: an operator's reply, or the player's own for their other devices. */
  chat(userId: number, message: ChatMessageWire): void {
    this.io.to(CHANNELS.user(userId)).emit('chat', message);
  }

  /**
   * Ends a user's live connections after their sessions ended (a password change or reset, the
   * account deleted): every socket of the user, or every one not signed in with `keepToken`. A
   * closed socket cannot come back with a revoked token: the handshake checks it.
   */
  endSessions(userId: number, keepToken?: string): void {
    const room = sessionRoom(userId);
    if (keepToken === undefined) {
      this.io.in(room).disconnectSockets(true);
      return;
    }
    void this.io
      .in(room)
      .fetchSockets()
      .then((sockets) => {
        for (const socket of sockets) if (socket.data.token !== keepToken) socket.disconnect(true);
      })
      .catch((error: unknown) => this.log('ending sessions failed', error));
  }

  /** Sends an update on the top channel and the configured channel. */
  private update(body: Omit<RealtimeUpdate, 'channel'>): void {
    this.io.to(CHANNELS.top).emit('update', { channel: CHANNELS.top, ...body });
    this.io.to(this.configuredChannel).emit('update', { channel: this.configuredChannel, ...body });
  }

  /**
   * A station's lobby numbers changed (its line, its viewers, its status, a play): the live catalogue
   * hears of it at once, or — within a second of the last — once at the end of that second, with
   * the numbers as they are then (one update a station a second at most, issue 45).
   */
  stationListChanged(stationId: number): void {
    const sent = this.listSent.get(stationId);
    if (sent?.waiting) return;
    const now = this.listClock.now().getTime();
    const send = () => {
      this.listSent.set(stationId, { at: this.listClock.now().getTime(), waiting: null });
      void this.listUpdate(stationId).catch((error: unknown) => this.log('station list update failed', error));
    };
    const wait = sent ? sent.at + LIST_UPDATE_MS - now : 0;
    if (wait <= 0) send();
    else this.listSent.set(stationId, { at: sent!.at, waiting: this.listClock.setTimeout(send, wait) });
  }

  /** The live catalogue: a station's status, playing flag, viewers and line length. */
  private async listUpdate(stationId: number): Promise<void> {
    const [row] = await this.db.query<StationLiveState>(`${LOBBY_SELECT} WHERE s.station_id = $1`, [stationId]);
    if (row) this.update({ list: [row] });
  }

  /** Closes every connection (shutdown). */
  close(): void {
    for (const sent of this.listSent.values()) sent.waiting?.cancel();
    this.listSent.clear();
    this.io.disconnectSockets(true);
  }
}

/** At most one lobby update a station in this many ms. */
const LIST_UPDATE_MS = 1_000;

/**
 * The lobby's numbers of stations (the live catalogue): status, playing, viewers (open visits) and
 * the line (places taken) — `station_id` … `reserve_count`, as `StationLiveState`.
 */
export const LOBBY_SELECT = `SELECT s.station_id, s.station_status,
    (CASE WHEN EXISTS (SELECT 1 FROM station_reservations r WHERE r.station_id = s.station_id AND r.reserve_status = 'playWaiting') THEN 1 ELSE 0 END)::int AS playing,
    (SELECT count(*)::int FROM station_visits v WHERE v.station_id = s.station_id AND v.ended_at IS NULL) AS visit_count,
    (SELECT count(*)::int FROM station_reservations r WHERE r.station_id = s.station_id AND r.reserve_status = ANY('{reserve,playTransition,playWaiting}'::text[])) AS reserve_count
  FROM stations s`;

/** A user's signed-in sockets on every instance (an internal room: `join` refuses the name). */
const sessionRoom = (userId: number) => `session:${userId}`;

/** Status-3 users' sockets, left out of every service push [R4.1-2] (an internal room). */
const EXEMPT_ROOM = 'exempt:maintenance';

/** Console connections (an internal room). */
const CONSOLE_ROOM = 'consoles';

/** The channels a client may join (and leave): top, the configured one, stations, kuji boxes, a user's. */
function joinable(channel: string, configuredChannel: string): boolean {
  return (
    channel === CHANNELS.top ||
    channel === configuredChannel ||
    /^station:\d{1,10}$/.test(channel) ||
    /^kuji:\d{1,10}:\d{1,10}$/.test(channel) ||
    /^user:\d{1,10}$/.test(channel)
  );
}

/** Answers an acknowledgement if the client asked for one. */
function reply(ack: unknown, answer: JoinAck | ControlAck): void {
  if (typeof ack === 'function') (ack as (answer: JoinAck | ControlAck) => void)(answer);
}
