import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlayClip, PlayClipRef } from '../../src/contract';
import { DueTimer, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';
import type { CameraChannel } from '../live/camera-channel';
import { SERVER_MESSAGES } from '../messages';
import { Refusal } from '../play/refusal';
import type { Store } from '../store/store';
import { CameraRecorder, type CameraRecording } from './camera-recorder';
import { CLIP_ID_PATTERN, newClipId, newViewSecret, viewKey, viewKeyValid } from './clip-keys';

/** A clip goes on this long after its play's result. */
export const CLIP_TAIL_MS = 3_000;
/** A clip is removed this long after its play, unless its player keeps it. */
export const CLIP_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** Unkept, a clip past its 30 days stays at least this long (the player may change their mind). */
export const CLIP_UNKEEP_GRACE_MS = 24 * 60 * 60_000;
/** No recording runs longer (a play whose result never came here: its room moved, a stuck machine). */
export const MAX_RECORDING_MS = 10 * 60_000;
/** Clips a player may keep at once (a kept clip is never removed by age or by the cap). */
export const MAX_KEPT_CLIPS = 50;
/**
 * With several instances the leader looks at least this often (clips are made on every instance,
 * and only the leader's own wake it otherwise).
 */
const RETENTION_EVERY_MS = 10 * 60_000;
/** A folder in the clips folder that no clip names is removed once it is this old. */
const ORPHAN_AGE_MS = 5 * 60_000;
/** Recordings' costs kept for the console and the tests. */
const RECENT_COSTS = 20;

const CAMERAS: readonly CameraName[] = ['front', 'side'];

export interface PlayClipsOptions {
  readonly store: Store;
  readonly clock: Clock;
  /** The ffmpeg that remuxes (the live feed's); null: no recording on this instance. */
  readonly ffmpeg: string | null;
  /** Where clips are written (CLIPS_DIR); null: a temporary folder removed on close. */
  readonly dir: string | null;
  /** CLIPS_MAX_BYTES: the oldest unkept clips are removed past it. */
  readonly maxBytes: number;
  /** The API prefix the files' addresses start with ('/api'). */
  readonly apiPrefix: string;
  /** The service's public address (PUBLIC_URL): the clip page's absolute address for link previews. */
  readonly publicUrl?: string;
  /** A catalogue picture's address by its key (the station's prize picture on the clip page). */
  readonly imageUrl?: (imageKey: string) => string;
  /** The camera's channel if it exists now (someone publishes or watches it), else null. */
  readonly channelOf: (stationId: number, camera: CameraName) => CameraChannel | null;
  readonly log: (message: string, error?: unknown) => void;
  /** Several instances share the store (the leader then looks every 10 minutes as well). */
  readonly distributed?: boolean;
}

/** A play starting, as the station room tells it. */
export interface PlayStart {
  readonly stationId: number;
  readonly playId: number;
  readonly userId: number;
  readonly prizeName: string;
}

/** Who asks for a clip's file. */
export interface ClipAccess {
  /** `?e=&k=` of an address given to its player or an operator. */
  readonly e?: unknown;
  readonly k?: unknown;
  /** The request carries a signed-in operator. */
  readonly operator: () => Promise<boolean>;
}

interface ClipRow {
  clip_id: string;
  play_id: number;
  user_id: number;
  station_id: number;
  view_secret: string;
  status: PlayClipRef['status'];
  cameras: CameraName[];
  bytes: number | string;
  duration_ms: number;
  shared: boolean;
  kept: boolean;
  created_at: Date | string;
  expires_at: Date | string | null;
}

const CLIP_COLUMNS = `c.clip_id, c.play_id, c.user_id, c.station_id, c.view_secret, c.status, c.cameras, c.bytes,
  c.duration_ms, c.shared, c.kept, c.created_at, c.expires_at`;

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** What the history and the play log say of a clip (their SQL selects these columns as clip_*). */
export function clipRef(row: {
  clip_id: string | null;
  clip_status: PlayClipRef['status'] | null;
  clip_shared: boolean | null;
  clip_kept: boolean | null;
  clip_expires_at: Date | string | null;
}): PlayClipRef | null {
  if (row.clip_id === null || row.clip_status === null) return null;
  return {
    clip_id: row.clip_id,
    status: row.clip_status,
    shared: row.clip_shared ? 1 : 0,
    kept: row.clip_kept ? 1 : 0,
    expires_at: iso(row.clip_expires_at),
  };
}

/** The columns `clipRef` reads, for a query joining `play_clips c` on its play. */
export const CLIP_REF_COLUMNS =
  'c.clip_id, c.status AS clip_status, c.shared AS clip_shared, c.kept AS clip_kept, c.expires_at AS clip_expires_at';

interface Recording {
  readonly start: PlayStart;
  readonly clipId: string;
  readonly recorders: CameraRecorder[];
  readonly inserted: Promise<boolean>;
  stopTimer: ScheduledTask | null;
  readonly capTimer: ScheduledTask;
  finished: Promise<void> | null;
}

/** One recording's cost, per camera (docs/clips.md "Costs"). */
export interface RecordingCost {
  readonly stationId: number;
  readonly camera: CameraName;
  readonly frames: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly cpuMs: number | null;
  readonly wallMs: number;
}

/**
 * A video of every play [R11-5] (docs/clips.md): when a station's play starts, each of its cameras
 * with a channel here is recorded (CameraRecorder: VP8 remuxed into WebM, nothing encoded) until
 * its result plus 3 s; the clip is a row in `play_clips` and a folder of one file per camera. Its
 * player and the operators see it; anyone once the player shares it. The leader removes clips 30
 * days after their play unless kept, and the oldest unkept ones past the folder's cap.
 */
export class PlayClips {
  private readonly recordings = new Map<number, Recording>();
  private root: string | null;
  private readonly ownRoot: boolean;
  private readonly retention: DueTimer;
  private leading = false;
  private retentionRun: Promise<void> = Promise.resolve();
  private queuedRun: Promise<void> | null = null;
  private readonly costs: RecordingCost[] = [];
  /** Folders no clip names, with when a retention run first saw them so. */
  private readonly orphansSeen = new Map<string, number>();
  private closed = false;

  constructor(private readonly options: PlayClipsOptions) {
    this.root = options.dir;
    this.ownRoot = options.dir === null;
    this.retention = new DueTimer(
      options.clock,
      () => this.nextDue(),
      () => this.runRetention(),
      options.log,
      'clips: retention',
    );
  }

  /** Whether plays are recorded here (ffmpeg found); null: why not. */
  get problem(): string | null {
    return this.options.ffmpeg === null ? 'no ffmpeg with libvpx on this server: plays are not recorded' : null;
  }

  /** The clips folder (made when first needed). */
  get dir(): string {
    if (this.root === null) this.root = mkdtempSync(join(tmpdir(), 'onkure-clips-'));
    else mkdirSync(this.root, { recursive: true });
    return this.root;
  }

  /** The costs of the last recordings (newest last). */
  recentCosts(): readonly RecordingCost[] {
    return this.costs;
  }

  /** Recordings running now: play, station, and each camera's ffmpeg (tests, the bench). */
  running(): { playId: number; stationId: number; cameras: { camera: CameraName; pid: number | undefined }[] }[] {
    return [...this.recordings.values()]
      .filter((r) => r.finished === null)
      .map((r) => ({
        playId: r.start.playId,
        stationId: r.start.stationId,
        cameras: r.recorders.map((recorder) => ({ camera: recorder.camera, pid: recorder.pid })),
      }));
  }

  /**
   * A play started (its charge written): its cameras are recorded from now on. Nothing waits for
   * this; a failure is logged and the play goes on.
   */
  playStarted(start: PlayStart): void {
    const ffmpeg = this.options.ffmpeg;
    if (this.closed || this.recordings.has(start.playId)) return;
    const channels = CAMERAS.map((camera) => [camera, this.options.channelOf(start.stationId, camera)] as const);
    if (!ffmpeg) {
      for (const [, channel] of channels) if (channel) channel.recordingError = this.problem;
      return;
    }
    const clipId = newClipId();
    const now = this.options.clock.now();
    let recorders: CameraRecorder[] = [];
    const watched = channels.filter((entry): entry is readonly [CameraName, CameraChannel] => entry[1] !== null);
    if (watched.length > 0) {
      try {
        const folder = join(this.dir, clipId);
        mkdirSync(folder);
        recorders = watched.map(
          ([camera, channel]) =>
            new CameraRecorder(channel, camera, ffmpeg, join(folder, `${camera}.webm`), this.options.clock),
        );
      } catch (error) {
        this.options.log('clips: could not make the clip folder', error);
        for (const [, channel] of watched) channel.recordingError = 'the clips folder cannot be written';
      }
    }
    const inserted = this.options.store
      .query(
        `INSERT INTO play_clips (clip_id, play_id, user_id, station_id, prize_name, view_secret, status, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'recording', $7, $8)`,
        [
          clipId,
          start.playId,
          start.userId,
          start.stationId,
          start.prizeName,
          newViewSecret(),
          now.toISOString(),
          new Date(now.getTime() + CLIP_RETENTION_MS).toISOString(),
        ],
      )
      .then(
        () => true,
        (error: unknown) => {
          this.options.log(`clips: could not record play ${start.playId}`, error);
          return false;
        },
      );
    const recording: Recording = {
      start,
      clipId,
      recorders,
      inserted,
      stopTimer: null,
      capTimer: this.options.clock.setTimeout(() => void this.finish(recording), MAX_RECORDING_MS),
      finished: null,
    };
    this.recordings.set(start.playId, recording);
  }

  /** A play's result (or its end without one: refunded): its clip ends 3 s later. */
  playEnded(playId: number): void {
    const recording = this.recordings.get(playId);
    if (!recording || recording.stopTimer || recording.finished) return;
    recording.stopTimer = this.options.clock.setTimeout(() => void this.finish(recording), CLIP_TAIL_MS);
  }

  /** Resolves when the play's recording (if any here) is written (tests). */
  async settled(playId: number): Promise<void> {
    await this.recordings.get(playId)?.finished;
  }

  private finish(recording: Recording): Promise<void> {
    recording.finished ??= this.write(recording).finally(() => {
      if (this.recordings.get(recording.start.playId) === recording) this.recordings.delete(recording.start.playId);
    });
    return recording.finished;
  }

  private async write(recording: Recording): Promise<void> {
    recording.stopTimer?.cancel();
    recording.capTimer.cancel();
    const outcomes = await Promise.all(recording.recorders.map((recorder) => recorder.stop()));
    const { clipId, start } = recording;
    for (const outcome of outcomes) {
      this.noteCost(start.stationId, outcome);
      const channel = this.options.channelOf(start.stationId, outcome.camera);
      if (channel) channel.recordingError = outcome.error;
    }
    const made = outcomes.filter((outcome) => outcome.frames > 0 && outcome.bytes > 0);
    for (const outcome of outcomes)
      if (!made.includes(outcome)) rmSync(outcome.file, { force: true, recursive: false });
    if (!(await recording.inserted)) {
      this.removeFolders([clipId]);
      return;
    }
    const now = this.options.clock.now().toISOString();
    try {
      const rows =
        made.length > 0
          ? await this.options.store.query(
              `UPDATE play_clips SET status = 'ready', cameras = $2::text[], bytes = $3, duration_ms = $4, ready_at = $5
                WHERE clip_id = $1 AND status = 'recording' RETURNING clip_id`,
              [
                clipId,
                made.map((outcome) => outcome.camera),
                made.reduce((sum, outcome) => sum + outcome.bytes, 0),
                Math.max(...made.map((outcome) => outcome.durationMs)),
                now,
              ],
            )
          : await this.options.store.query(
              `UPDATE play_clips SET status = 'failed', reason = $2
                WHERE clip_id = $1 AND status = 'recording' RETURNING clip_id`,
              [clipId, recording.recorders.length === 0 ? 'no_video' : 'recorder'],
            );
      // Removed meanwhile (the player deleted their account): its files go too.
      if (rows.length === 0 || made.length === 0) this.removeFolders([clipId]);
    } catch (error) {
      this.options.log(`clips: could not finish the clip of play ${start.playId}`, error);
    }
    // The leader holds the folder to its cap at once, and may have a nearer expiry to wait for.
    if (this.leading) void this.runRetention().then(() => this.retention.poke());
  }

  private noteCost(stationId: number, outcome: CameraRecording): void {
    if (outcome.frames === 0) return;
    this.costs.push({
      stationId,
      camera: outcome.camera,
      frames: outcome.frames,
      bytes: outcome.bytes,
      durationMs: outcome.durationMs,
      cpuMs: outcome.cpuMs,
      wallMs: outcome.wallMs,
    });
    if (this.costs.length > RECENT_COSTS) this.costs.shift();
  }

  // ---- what the player, anyone and the operators see -------------------------------------------

  /** The player's clip of one of their plays (404 for a play that is not theirs or has no clip). */
  async ofPlay(userId: number, playId: number): Promise<PlayClip> {
    const [row] = await this.options.store.query<ClipRow>(
      `SELECT ${CLIP_COLUMNS} FROM play_clips c WHERE c.play_id = $1 AND c.user_id = $2`,
      [playId, userId],
    );
    if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
    return this.wire(row);
  }

  /** Any play's clip, for an operator (404 when the play has none). */
  async ofPlayForOperator(playId: number): Promise<PlayClip & { user_id: number }> {
    const [row] = await this.options.store.query<ClipRow>(
      `SELECT ${CLIP_COLUMNS} FROM play_clips c WHERE c.play_id = $1`,
      [playId],
    );
    if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
    return { ...this.wire(row), user_id: row.user_id };
  }

  /** The player shares their clip (anyone with its address may watch it) or takes it back. */
  async share(userId: number, clipId: string, shared: boolean): Promise<PlayClip> {
    const [row] = await this.options.store.query<ClipRow>(
      `UPDATE play_clips c SET shared = $3 WHERE c.clip_id = $1 AND c.user_id = $2 AND c.status = 'ready'
       RETURNING ${CLIP_COLUMNS}`,
      [clipId, userId, shared],
    );
    if (!row) throw await this.refusalFor(userId, clipId);
    return this.wire(row);
  }

  /**
   * The player keeps their clip (never removed by age or the cap) or lets it go again: then it
   * is removed 30 days after its play, and at the earliest a day from now.
   */
  async keep(userId: number, clipId: string, kept: boolean): Promise<PlayClip> {
    const now = this.options.clock.now().getTime();
    const row = await this.options.store.transaction(async (q) => {
      await q.query('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
      if (kept) {
        const [count] = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM play_clips WHERE user_id = $1 AND kept AND status = 'ready' AND clip_id <> $2`,
          [userId, clipId],
        );
        if ((count?.n ?? 0) >= MAX_KEPT_CLIPS)
          throw new Refusal(409, 409, SERVER_MESSAGES.clipKeepLimit(MAX_KEPT_CLIPS));
      }
      const [updated] = await q.query<ClipRow>(
        `UPDATE play_clips c SET kept = $3,
                expires_at = CASE WHEN $3 THEN NULL
                  ELSE greatest(c.created_at + make_interval(secs => $4), $5::timestamptz) END
          WHERE c.clip_id = $1 AND c.user_id = $2 AND c.status = 'ready' RETURNING ${CLIP_COLUMNS}`,
        [clipId, userId, kept, CLIP_RETENTION_MS / 1000, new Date(now + CLIP_UNKEEP_GRACE_MS).toISOString()],
      );
      return updated ?? null;
    });
    if (!row) throw await this.refusalFor(userId, clipId);
    return this.wire(row);
  }

  /** 404 for a clip that is not the caller's (or none), 409 for theirs that is not ready. */
  private async refusalFor(userId: number, clipId: string): Promise<Refusal> {
    const [row] = await this.options.store.query<{ status: string }>(
      'SELECT status FROM play_clips WHERE clip_id = $1 AND user_id = $2',
      [clipId, userId],
    );
    return row
      ? new Refusal(409, 409, SERVER_MESSAGES.clipNotReady)
      : new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
  }

  /** A shared clip as anyone sees it (404 for any other id: unknown, unshared, not ready). */
  async publicView(clipId: string) {
    if (!CLIP_ID_PATTERN.test(clipId)) throw new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
    const [row] = await this.options.store.query<{
      clip_id: string;
      station_id: number;
      station_name: string;
      prize_name: string;
      started_at: Date | string;
      result: 'win' | 'miss' | 'refunded' | null;
      cameras: CameraName[];
      duration_ms: number;
      image_key: string;
    }>(
      `SELECT c.clip_id, c.station_id, s.station_admin_id AS station_name, c.prize_name, p.started_at, p.result,
              c.cameras, c.duration_ms, s.image_key
         FROM play_clips c JOIN plays p ON p.play_id = c.play_id JOIN stations s ON s.station_id = c.station_id
        WHERE c.clip_id = $1 AND c.status = 'ready' AND c.shared`,
      [clipId],
    );
    if (!row) throw new Refusal(404, 404, SERVER_MESSAGES.clipNotFound);
    return {
      clip_id: row.clip_id,
      station_id: row.station_id,
      station_name: row.station_name,
      prize_name: row.prize_name,
      played_at: new Date(row.started_at).toISOString(),
      result: row.result,
      cameras: row.cameras,
      duration_ms: row.duration_ms,
      urls: Object.fromEntries(row.cameras.map((camera) => [camera, this.fileUrl(row.clip_id, camera, null)])),
      ...(this.options.imageUrl ? { img_url: this.options.imageUrl(row.image_key) } : {}),
      ...(this.options.publicUrl ? { page_url: `${this.options.publicUrl}/clip/${row.clip_id}` } : {}),
    };
  }

  /**
   * The file of a clip's camera, or null (404: an unknown id, not ready, not this camera, or not
   * the caller's to see: shared, or an address given to its player or an operator, or an operator).
   */
  async file(clipId: string, camera: string, access: ClipAccess): Promise<{ path: string; size: number } | null> {
    if (!CLIP_ID_PATTERN.test(clipId) || (camera !== 'front' && camera !== 'side')) return null;
    const [row] = await this.options.store.query<ClipRow>(
      `SELECT ${CLIP_COLUMNS} FROM play_clips c WHERE c.clip_id = $1 AND c.status = 'ready'`,
      [clipId],
    );
    if (!row || !row.cameras.includes(camera)) return null;
    const allowed =
      row.shared ||
      viewKeyValid(row.clip_id, row.view_secret, this.options.clock.now().getTime(), access.e, access.k) ||
      (await access.operator());
    if (!allowed || this.root === null) return null;
    const path = join(this.root, row.clip_id, `${camera}.webm`);
    try {
      const stat = statSync(path);
      return stat.isFile() ? { path, size: stat.size } : null;
    } catch {
      // Written on another instance's disk (CLIPS_DIR not shared), or removed meanwhile.
      return null;
    }
  }

  private fileUrl(clipId: string, camera: CameraName, key: { e: number; k: string } | null): string {
    const base = `${this.options.apiPrefix}/clips/${clipId}/${camera}.webm`;
    return key ? `${base}?e=${key.e}&k=${key.k}` : base;
  }

  private wire(row: ClipRow): PlayClip {
    const key =
      row.status === 'ready' ? viewKey(row.clip_id, row.view_secret, this.options.clock.now().getTime()) : null;
    return {
      clip_id: row.clip_id,
      status: row.status,
      shared: row.shared ? 1 : 0,
      kept: row.kept ? 1 : 0,
      expires_at: iso(row.expires_at),
      play_id: row.play_id,
      station_id: row.station_id,
      cameras: row.status === 'ready' ? row.cameras : [],
      duration_ms: row.duration_ms,
      bytes: Number(row.bytes),
      created_at: iso(row.created_at)!,
      urls: key
        ? Object.fromEntries(row.cameras.map((camera) => [camera, this.fileUrl(row.clip_id, camera, key)]))
        : {},
      share_path: row.shared && row.status === 'ready' ? `/clip/${row.clip_id}` : null,
    };
  }

  // ---- retention (the leader) -----------------------------------------------------------------

  /**
   * The leader's part: retention now, then at the next instant something falls due (an expiry, a
   * recording that can no longer be running, a stray folder's age), and after each clip made here.
   */
  start(): void {
    if (this.leading) return;
    this.leading = true;
    void this.runRetention().then(() => this.retention.start());
  }

  stop(): void {
    this.leading = false;
    this.retention.stop();
  }

  /** Resolves when no retention run or timer read is going (tests step a manual clock with it). */
  async retentionSettled(): Promise<void> {
    await this.retentionRun.catch(() => undefined);
    await this.retention.settled();
  }

  /** When retention next has something to do, or null (nothing will fall due by itself). */
  private async nextDue(): Promise<Date | null> {
    const [row] = await this.options.store.query<{ expires: Date | string | null; stale: Date | string | null }>(
      `SELECT (SELECT min(expires_at) FROM play_clips WHERE status IN ('ready', 'failed') AND NOT kept) AS expires,
              (SELECT min(created_at) FROM play_clips WHERE status = 'recording') AS stale`,
    );
    const now = this.options.clock.now().getTime();
    const due = [
      row?.expires ? new Date(row.expires).getTime() : null,
      row?.stale ? new Date(row.stale).getTime() + MAX_RECORDING_MS + 60_001 : null,
      ...[...this.orphansSeen.values()].map((seen) => seen + ORPHAN_AGE_MS),
      this.options.distributed ? now + RETENTION_EVERY_MS : null,
    ].filter((at): at is number => at !== null);
    return due.length === 0 ? null : new Date(Math.max(now, Math.min(...due)));
  }

  /**
   * Removes what is due (one run at a time): clips past their expiry, recordings that can no
   * longer be running anywhere (their instance died), the oldest unkept clips while the ready ones
   * pass the cap, and folders no clip names.
   */
  runRetention(): Promise<void> {
    // Calls while a run waits to start share it (a manual clock moved by days fires the timer often).
    if (this.queuedRun) return this.queuedRun;
    const start = () => {
      this.queuedRun = null;
      return this.retain();
    };
    this.retentionRun = this.retentionRun.then(start, start);
    this.queuedRun = this.retentionRun.catch((error: unknown) => this.options.log('clips: retention failed', error));
    return this.queuedRun;
  }

  private async retain(): Promise<void> {
    const { store, clock } = this.options;
    const now = clock.now();
    const expired = await store.query<{ clip_id: string }>(
      `UPDATE play_clips SET status = 'removed', reason = 'expired', removed_at = $1
        WHERE status IN ('ready', 'failed') AND NOT kept AND expires_at <= $1 RETURNING clip_id`,
      [now.toISOString()],
    );
    const here = [...this.recordings.values()].map((r) => r.clipId);
    const interrupted = await store.query<{ clip_id: string }>(
      `UPDATE play_clips SET status = 'failed', reason = 'interrupted'
        WHERE status = 'recording' AND created_at < $1 AND NOT (clip_id = ANY($2::text[])) RETURNING clip_id`,
      [new Date(now.getTime() - MAX_RECORDING_MS - 60_000).toISOString(), here],
    );
    const overCap = await store.transaction(async (q) => {
      const [total] = await q.query<{ bytes: string | number | null }>(
        "SELECT sum(bytes) AS bytes FROM play_clips WHERE status = 'ready'",
      );
      let excess = Number(total?.bytes ?? 0) - this.options.maxBytes;
      if (excess <= 0) return [];
      const oldest = await q.query<{ clip_id: string; bytes: string | number }>(
        `SELECT clip_id, bytes FROM play_clips WHERE status = 'ready' AND NOT kept
          ORDER BY created_at, clip_id LIMIT 1000 FOR UPDATE`,
      );
      const removed: string[] = [];
      for (const row of oldest) {
        if (excess <= 0) break;
        removed.push(row.clip_id);
        excess -= Number(row.bytes);
      }
      if (excess > 0) this.options.log('clips: the kept clips alone pass CLIPS_MAX_BYTES');
      if (removed.length > 0)
        await q.query(
          `UPDATE play_clips SET status = 'removed', reason = 'cap', removed_at = $2 WHERE clip_id = ANY($1::text[])`,
          [removed, now.toISOString()],
        );
      return removed;
    });
    this.removeFolders([...expired, ...interrupted].map((row) => row.clip_id).concat(overCap));
    await this.removeOrphans(now.getTime());
  }

  /**
   * Folders in the clips folder that no recording or ready clip names (a crash between a row's
   * removal and its files', another instance's leftovers), removed once seen so for a few minutes
   * (by the server's clock: a folder being made while its row is written is left alone).
   */
  private async removeOrphans(now: number): Promise<void> {
    if (this.root === null) return;
    let names: string[];
    try {
      names = readdirSync(this.root).filter((name) => CLIP_ID_PATTERN.test(name));
    } catch {
      return;
    }
    const here = new Set([...this.recordings.values()].map((r) => r.clipId));
    const live = new Set(
      names.length === 0
        ? []
        : (
            await this.options.store.query<{ clip_id: string }>(
              "SELECT clip_id FROM play_clips WHERE clip_id = ANY($1::text[]) AND status IN ('recording', 'ready')",
              [names],
            )
          ).map((row) => row.clip_id),
    );
    const unnamed = new Set(names.filter((name) => !live.has(name) && !here.has(name)));
    for (const name of [...this.orphansSeen.keys()]) if (!unnamed.has(name)) this.orphansSeen.delete(name);
    for (const name of unnamed) {
      const seen = this.orphansSeen.get(name);
      if (seen === undefined) this.orphansSeen.set(name, now);
      else if (now - seen >= ORPHAN_AGE_MS) {
        this.removeFolders([name]);
        this.orphansSeen.delete(name);
      }
    }
  }

  /** Removes clips' folders (their rows say why: removed, failed). */
  removeFolders(clipIds: readonly string[]): void {
    if (this.root === null) return;
    for (const clipId of clipIds)
      if (CLIP_ID_PATTERN.test(clipId)) rmSync(join(this.root, clipId), { recursive: true, force: true });
  }

  /**
   * Ends every recording (each clip is written as far as it got) and, for a temporary folder,
   * removes it.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    await Promise.all([...this.recordings.values()].map((recording) => this.finish(recording)));
    await this.retentionRun.catch(() => undefined);
    if (this.ownRoot && this.root !== null) rmSync(this.root, { recursive: true, force: true });
  }
}
