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
} from '../../src/contract';
import type { StationStatus } from '../../src/domain';
import type { IdentityService } from '../auth/identity';
import { ERROR_INFO } from '../messages';
import type { PlayEvents } from '../play/rooms/play-ports';
import type { StationRooms } from '../play/rooms/station-rooms';
import { isRefusal } from '../play/refusal';
import type { SqlExecutor } from '../store/store';

interface SocketData {
  /** The signed-in user the handshake proved, or null for a guest. */
  userId: number | null;
  token: string | null;
}
type HubServer = SocketIOServer<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** At most this many channels per connection (top, the configured one, a station, a kuji box, the user). */
const MAX_CHANNELS_PER_SOCKET = 8;

const refused = (code: 400 | 401 | 403 | 404, info: string = ERROR_INFO[code]) => ({
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
export class RealtimeHub implements PlayEvents {
  private readonly io: HubServer;
  private readonly sockets = new Map<number, Set<string>>();
  /** Users whose last connection here closed, while the other instances are asked for theirs. */
  private readonly leaving = new Map<number, Promise<void>>();

  constructor(
    io: SocketIOServer,
    private readonly identity: IdentityService,
    private readonly rooms: StationRooms,
    private readonly db: SqlExecutor,
    private readonly configuredChannel: string,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.io = io as unknown as HubServer;
    this.io.use((socket, next) => {
      void this.handshake(socket).then(
        () => next(),
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    });
    this.io.on('connection', (socket) => this.connected(socket));
  }

  /** A guest sends no auth; a user sends { user_id, access_token }, which must be valid. */
  private async handshake(socket: HubSocket): Promise<void> {
    socket.data.userId = null;
    socket.data.token = null;
    const auth = socket.handshake.auth as Record<string, unknown> | undefined;
    if (!auth || Object.keys(auth).length === 0) return;
    const parsed = identitySchema.safeParse(auth);
    const user = parsed.success
      ? await this.identity.authenticate(parsed.data.user_id, parsed.data.access_token)
      : null;
    if (!user) throw new Error(ERROR_INFO[401]);
    socket.data.userId = user.user_id;
    socket.data.token = parsed.data!.access_token;
  }

  private async stillSignedIn(socket: HubSocket): Promise<boolean> {
    const { userId, token } = socket.data;
    return userId !== null && token !== null && (await this.identity.authenticate(userId, token)) !== null;
  }

  private connected(socket: HubSocket): void {
    const userId = socket.data.userId;
    if (userId !== null) {
      const mine = this.sockets.get(userId) ?? new Set<string>();
      mine.add(socket.id);
      this.sockets.set(userId, mine);
      // Every signed-in socket is in its user's internal room (not a channel a client may join), so
      // sessions can be ended and presence counted on every instance.
      void socket.join(sessionRoom(userId));
      this.rooms.playerBack(userId);
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
      if (typeof channel === 'string') void socket.leave(channel);
      reply(ack, { ok: true });
    });
    socket.on(
      'control',
      (message, ack) =>
        void this.control(socket, message).then(
          (answer) => reply(ack, answer),
          (error: unknown) => this.failed(ack, error),
        ),
    );
    socket.on('disconnect', () => {
      if (userId === null) return;
      const mine = this.sockets.get(userId);
      mine?.delete(socket.id);
      if (!mine || mine.size === 0) {
        this.sockets.delete(userId);
        const check = this.awayIfGone(userId)
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
    const user = /^user:(\d{1,10})$/.exec(channel);
    const allowed =
      channel === CHANNELS.top ||
      channel === this.configuredChannel ||
      /^station:\d{1,10}$/.test(channel) ||
      /^kuji:\d{1,10}:\d{1,10}$/.test(channel) ||
      user !== null;
    if (!allowed) return refused(404);
    if (user && (Number(user[1]) !== socket.data.userId || !(await this.stillSignedIn(socket)))) return refused(403);
    if (!socket.rooms.has(channel) && socket.rooms.size > MAX_CHANNELS_PER_SOCKET) return refused(400);
    await socket.join(channel);
    const station = /^station:(\d+)$/.exec(channel);
    // A viewer joining a station sees the play on its machine at once.
    if (station) {
      const state = await this.rooms.stationView(Number(station[1]));
      if (state) socket.emit('play_state', state);
    }
    return { ok: true };
  }

  private async control(socket: HubSocket, message: unknown): Promise<ControlAck> {
    if (socket.data.userId === null) return refused(401);
    const parsed = controlCommandSchema.strict().safeParse(message);
    if (!parsed.success) return refused(400);
    if (!(await this.stillSignedIn(socket))) return refused(401);
    try {
      const done = await this.rooms.control(
        socket.data.userId,
        parsed.data.play_id,
        parsed.data.button,
        parsed.data.command,
      );
      return { ok: true, tick: done.tick, machine: done.machine };
    } catch (error) {
      if (isRefusal(error)) return { ok: false, error_code: error.code, error_info: error.info };
      throw error;
    }
  }

  /** Whether a user has a live connection here, or its closing is still being settled (tests wait on it). */
  isConnected(userId: number): boolean {
    return (this.sockets.get(userId)?.size ?? 0) > 0 || this.leaving.has(userId);
  }

  /**
   * The user's last connection here closed: they are away for the play loop only if no instance
   * holds another one (with several instances the player may have a tab on each), checked again
   * here after the answer in case they came back meanwhile.
   */
  private async awayIfGone(userId: number): Promise<void> {
    const elsewhere = await this.io.in(sessionRoom(userId)).fetchSockets();
    if (elsewhere.length === 0 && !this.sockets.has(userId)) this.rooms.playerAway(userId);
  }

  // ---- PlayEvents ----------------------------------------------------------------------------

  lineChanged(stationId: number): void {
    this.io.to(CHANNELS.station(stationId)).emit('reserve_change', { station_id: stationId, reserve_change: 1 });
    void this.listUpdate(stationId).catch((error: unknown) => this.log('station list update failed', error));
  }

  playState(stationId: number, state: PlayState): void {
    this.io.to(CHANNELS.station(stationId)).emit('play_state', state);
  }

  push(userId: number, push: PushMessage): void {
    this.io.to(CHANNELS.user(userId)).emit('push', push);
  }

  reserveCancelled(userId: number, stationId: number, reason: string): void {
    this.io.to(CHANNELS.user(userId)).emit('crane_reserve_cancel', { station_id: stationId, reason });
  }

  stationStatus(stationId: number, status: StationStatus): void {
    this.update({ maintenance: { station_id: stationId, station_status: status } });
    void this.listUpdate(stationId).catch((error: unknown) => this.log('station list update failed', error));
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

  /** The live catalogue: a station's status, playing flag and viewer count. */
  private async listUpdate(stationId: number): Promise<void> {
    const [row] = await this.db.query<{ station_status: string; playing: number; visit_count: number }>(
      `SELECT s.station_status,
              (SELECT count(*)::int FROM station_reservations r WHERE r.station_id = s.station_id AND r.reserve_status = 'playWaiting') AS playing,
              (SELECT count(*)::int FROM station_visits v WHERE v.station_id = s.station_id AND v.ended_at IS NULL) AS visit_count
         FROM stations s WHERE s.station_id = $1`,
      [stationId],
    );
    if (!row) return;
    this.update({
      list: [
        {
          station_id: stationId,
          station_status: row.station_status,
          playing: row.playing > 0 ? 1 : 0,
          visit_count: row.visit_count,
        },
      ],
    });
  }

  /** Closes every connection (shutdown). */
  close(): void {
    this.io.disconnectSockets(true);
  }
}

/** A user's signed-in sockets on every instance (an internal room: `join` refuses the name). */
const sessionRoom = (userId: number) => `session:${userId}`;

/** Answers an acknowledgement if the client asked for one. */
function reply(ack: unknown, answer: JoinAck | ControlAck): void {
  if (typeof ack === 'function') (ack as (answer: JoinAck | ControlAck) => void)(answer);
}
