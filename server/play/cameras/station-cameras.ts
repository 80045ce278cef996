import { createHash } from 'node:crypto';
import type { StationInfo } from '../../../src/domain';
import { isMaintenanceStatus } from '../../../src/domain';
import type { Clock } from '../../clock';
import type { SqlExecutor } from '../../store/store';
import { layPrizes, type CranePrize, type CraneState } from '../../../src/domain/play/crane-machine';
import { CameraPainter, type PictureDrawer, type PictureKind } from '../../../media/cameras/camera-painter';
import type { CameraName, CameraScene } from '../../../media/cameras/camera-renderer';

/** One encoded picture and the simulation tick it shows. */
export interface CameraFrame {
  readonly jpeg: Buffer;
  /** The machine's tick (0 while idle). */
  readonly tick: number;
  /** The play the machine runs, or null while idle. */
  readonly playId: number | null;
}

/** One raw picture of the video camera (I420, VIDEO_FRAME size: portrait, mounted sideways) for the encoder. */
export interface CameraPixels {
  readonly pixels: Buffer;
  readonly tick: number;
  readonly playId: number | null;
  /** The station is down: the picture is dimmed. */
  readonly dimmed: boolean;
}

/** What the cameras need to know of a station between plays. */
interface IdleStation {
  readonly layout: readonly CranePrize[];
  readonly dimmed: boolean;
  /** VIP and exclusive stations show their cameras only with a media token. */
  readonly gated: boolean;
  readonly readAt: number;
}

/** A checked media token is trusted this long before the store is asked again (revocation). */
const TOKEN_RECHECK_MS = 5_000;

/** An idle station's field is read from the store at most this often. */
const IDLE_REFRESH_MS = 1_000;

/** The source of running machines (the play loop). */
export interface MachineSource {
  machineOf(stationId: number): CraneState | null;
  onStation(stationId: number): { readonly play_id: number } | null;
}

/**
 * The front and side cameras of every station, rendered from the simulation. Rendering happens
 * only when someone fetches a picture, at most once per camera per machine tick: every viewer of
 * that tick gets the same encoded bytes. Between plays the picture changes only when the field
 * does, so an idle station costs one render per camera until then. The drawing itself happens off
 * the server's event loop, in the camera worker thread (CameraPainter).
 */
export class StationCameras {
  private readonly frames = new Map<string, { key: string; bytes: Promise<Buffer> }>();
  private readonly rawFrames = new Map<string, { key: string; bytes: Promise<Buffer> }>();
  private readonly idle = new Map<number, IdleStation>();
  /** Renders done (the benchmark reads it). */
  renders = 0;

  constructor(
    private readonly db: SqlExecutor,
    private readonly machines: MachineSource,
    private readonly clock: Clock,
    private readonly apiPrefix: string,
    private readonly webrtcUrl: string,
    /** Draws the pictures (default: a worker thread of its own). */
    readonly painter: PictureDrawer = new CameraPainter(),
  ) {}

  /** Ends the drawing worker (server shutdown). */
  close(): void {
    this.painter.close();
  }

  private readonly tokens = new Map<string, { stationId: number | null; expiresAt: number; checkedAt: number }>();

  /**
   * Whether a picture of this station may be shown: normal stations to anyone; VIP and exclusive
   * ones only with a live media token for the station, issued by station_info after the VIP gate.
   */
  async mayView(stationId: number, token: string | undefined): Promise<'ok' | 'unknown' | 'forbidden'> {
    const station = await this.idleStation(stationId);
    if (!station) return 'unknown';
    if (!station.gated) return 'ok';
    if (!token) return 'forbidden';
    const hash = createHash('sha256').update(token).digest('hex');
    const now = this.clock.now().getTime();
    let known = this.tokens.get(hash);
    if (!known || now - known.checkedAt > TOKEN_RECHECK_MS) {
      const [row] = await this.db.query<{ station_id: number | null; expires_at: Date }>(
        'SELECT station_id, expires_at FROM media_tokens WHERE token_hash = $1 AND revoked_at IS NULL',
        [hash],
      );
      if (!row) {
        this.tokens.delete(hash);
        return 'forbidden';
      }
      known = { stationId: row.station_id, expiresAt: new Date(row.expires_at).getTime(), checkedAt: now };
      if (this.tokens.size > 10_000) this.tokens.clear();
      this.tokens.set(hash, known);
    }
    return known.stationId === stationId && known.expiresAt > now ? 'ok' : 'forbidden';
  }

  /** Whether the station is down now (a maintenance status: its cameras are dark), read at most once a second. */
  async isDown(stationId: number): Promise<boolean> {
    return (await this.idleStation(stationId))?.dimmed ?? false;
  }

  /** The latest picture of a station's camera as JPEG (the jpg feed); null for an unknown station. */
  async frame(stationId: number, camera: CameraName): Promise<CameraFrame | null> {
    const view = await this.view(stationId);
    if (!view) return null;
    const frame = await this.cached(this.frames, `${stationId}:${camera}`, view, 'still', camera);
    return { jpeg: frame, tick: view.tick, playId: view.playId };
  }

  /**
   * The latest picture of a station's camera as raw I420 pixels (the video encoder's input), with
   * the tick it shows and whether the station is down (dimmed); null for an unknown station. The
   * buffer is shared: a caller that writes into it copies it first.
   */
  async pixels(stationId: number, camera: CameraName): Promise<CameraPixels | null> {
    const view = await this.view(stationId);
    if (!view) return null;
    const pixels = await this.cached(this.rawFrames, `${stationId}:${camera}`, view, 'video', camera);
    return { pixels, tick: view.tick, playId: view.playId, dimmed: view.scene.dimmed };
  }

  /** The machine's tick and play now (a published camera's still is stamped with them). */
  machineNow(stationId: number): { tick: number; playId: number | null } {
    const running = this.machines.machineOf(stationId);
    return running
      ? { tick: running.tick, playId: this.machines.onStation(stationId)?.play_id ?? null }
      : { tick: 0, playId: null };
  }

  /** What a station's cameras show now: a running machine, or the idle field. */
  private async view(
    stationId: number,
  ): Promise<{ key: string; scene: CameraScene; tick: number; playId: number | null } | null> {
    const running = this.machines.machineOf(stationId);
    if (running) {
      const playId = this.machines.onStation(stationId)?.play_id ?? null;
      // What the picture shows, not the tick: a machine waiting for a button is drawn once, and
      // every later fetch gets those bytes with the current tick in its header.
      const key = `play:${playId}:${running.x}:${running.z}:${running.h}:${running.grip}:${running.carrying?.prizeId ?? ''}:${running.prizes.length}:${running.prizes.map((p) => `${p.x},${p.z}`).join(';')}`;
      const scene = {
        x: running.x,
        z: running.z,
        h: running.h,
        grip: running.grip,
        prizes: running.prizes,
        carryingPrizeId: running.carrying?.prizeId ?? null,
        dimmed: false,
      };
      return { key, scene, tick: running.tick, playId };
    }
    const station = await this.idleStation(stationId);
    if (!station) return null;
    const key = `idle:${JSON.stringify(station.layout)}:${station.dimmed}`;
    return {
      key,
      scene: { x: 80, z: 80, h: 0, grip: 0, prizes: station.layout, carryingPrizeId: null, dimmed: station.dimmed },
      tick: 0,
      playId: null,
    };
  }

  /**
   * One render per camera per distinct picture: later callers of the same picture share its bytes,
   * and callers while it is being drawn wait for that one drawing. A drawing that fails (the
   * worker died) is forgotten, so the next caller asks again.
   */
  private cached(
    cache: Map<string, { key: string; bytes: Promise<Buffer> }>,
    slot: string,
    view: { key: string; scene: CameraScene },
    kind: PictureKind,
    camera: CameraName,
  ): Promise<Buffer> {
    const known = cache.get(slot);
    if (known && known.key === view.key) return known.bytes;
    const bytes = this.painter.draw(kind, camera, view.scene);
    this.renders += 1;
    cache.set(slot, { key: view.key, bytes });
    bytes.catch(() => {
      if (cache.get(slot)?.bytes === bytes) cache.delete(slot);
    });
    return bytes;
  }

  private async idleStation(stationId: number): Promise<IdleStation | null> {
    const now = this.clock.now().getTime();
    const known = this.idle.get(stationId);
    if (known && now - known.readAt < IDLE_REFRESH_MS) return known;
    const [row] = await this.db.query<{
      station_status: string;
      station_type: string;
      layout: CranePrize[] | null;
      stock: number;
      prize_shape: CranePrize['shape'];
    }>(
      `SELECT s.station_status, s.station_type, m.layout, s.stock, s.prize_shape FROM stations s LEFT JOIN station_machines m ON m.station_id = s.station_id WHERE s.station_id = $1`,
      [stationId],
    );
    if (!row) return null;
    // A station never played yet shows the field its first play will start from.
    const layout = row.layout ?? layPrizes(stationId * 7919, Math.max(1, Math.min(3, row.stock)), 1, row.prize_shape);
    const idle = {
      layout,
      dimmed: isMaintenanceStatus(row.station_status),
      gated: row.station_type !== 'normal',
      readAt: now,
    };
    this.idle.set(stationId, idle);
    return idle;
  }

  /** The picture address of a station's camera (motion_jpeg_front/side), with the media token of a gated station. */
  stillUrl(stationId: number, camera: CameraName, mediaToken: string | null = null): string {
    return `${this.apiPrefix}/stations/${stationId}/camera/${camera}.jpg${mediaToken ? `?k=${mediaToken}` : ''}`;
  }

  /** Station info (spec §3) [R3-2]: where the feeds are and each camera's luminance. */
  async stationInfo(stationId: number, mediaToken: string | null = null): Promise<StationInfo | null> {
    const [row] = await this.db.query<
      Record<
        | 'brightness_front'
        | 'saturate_front'
        | 'contrast_front'
        | 'brightness_side'
        | 'saturate_side'
        | 'contrast_side',
        number
      >
    >(
      `SELECT brightness_front, saturate_front, contrast_front, brightness_side, saturate_side, contrast_side FROM stations WHERE station_id = $1`,
      [stationId],
    );
    if (!row) return null;
    // Our own signaling (a path) is told the station, so that any instance can route the viewer to
    // the one drawing it (docs/deployment.md); a gated station's signaling checks the same media
    // token. The SDK keeps the query.
    const query = [this.webrtcUrl.startsWith('/') ? `s=${stationId}` : null, mediaToken ? `k=${mediaToken}` : null]
      .filter((part) => part !== null)
      .join('&');
    return {
      watch_info: {
        webrtc_url: query ? `${this.webrtcUrl}${this.webrtcUrl.includes('?') ? '&' : '?'}${query}` : this.webrtcUrl,
        webrtc_channel_front: `station-${stationId}-front`,
        webrtc_channel_side: `station-${stationId}-side`,
        motion_jpeg_front: this.stillUrl(stationId, 'front', mediaToken),
        motion_jpeg_side: this.stillUrl(stationId, 'side', mediaToken),
      },
      luminance_front: {
        brightness_front: row.brightness_front,
        saturate_front: row.saturate_front,
        contrast_front: row.contrast_front,
      },
      luminance_side: {
        brightness_side: row.brightness_side,
        saturate_side: row.saturate_side,
        contrast_side: row.contrast_side,
      },
    };
  }
}
