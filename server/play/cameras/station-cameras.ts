import { createHash } from 'node:crypto';
import type { StationInfo } from '../../../src/domain';
import { isMaintenanceStatus } from '../../../src/domain';
import type { Clock } from '../../clock';
import type { SqlExecutor } from '../../store/store';
import type { CraneState } from '../../../src/domain/play/crane-machine';
import type { CameraName } from '../../../media/cameras/camera-renderer';

/** What the cameras need to know of a station. */
interface StationAccess {
  /** The station is down (a maintenance status): its cameras are dark. */
  readonly dimmed: boolean;
  /** VIP and exclusive stations show their cameras only with a media token. */
  readonly gated: boolean;
  readonly readAt: number;
}

/** A checked media token is trusted this long before the store is asked again (revocation). */
const TOKEN_RECHECK_MS = 5_000;

/** A station's status and type are read from the store at most this often. */
const STATION_REFRESH_MS = 1_000;

/** The source of running machines (the play loop): the machine's tick a still is stamped with. */
export interface MachineSource {
  machineOf(stationId: number): Pick<CraneState, 'tick'> | null;
  onStation(stationId: number): { readonly play_id: number } | null;
}

/**
 * Who may see a station's cameras, whether they are dark, and where they are (station info). The
 * pictures themselves come from each camera's WHIP publisher (server/live, docs/live-feed.md): the
 * server draws none.
 */
export class StationCameras {
  private readonly stations = new Map<number, StationAccess>();

  constructor(
    private readonly db: SqlExecutor,
    private readonly machines: MachineSource,
    private readonly clock: Clock,
    private readonly apiPrefix: string,
    private readonly webrtcUrl: string,
    /** Whether this service makes the spectators' HLS (it needs ffmpeg): station info names it then. */
    private readonly hls: () => boolean = () => false,
  ) {}

  private readonly tokens = new Map<string, { stationId: number | null; expiresAt: number; checkedAt: number }>();

  /**
   * Whether a picture of this station may be shown: normal stations to anyone; VIP and exclusive
   * ones only with a live media token for the station, issued by station_info after the VIP gate.
   */
  async mayView(stationId: number, token: string | undefined): Promise<'ok' | 'unknown' | 'forbidden'> {
    const station = await this.station(stationId);
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
    return (await this.station(stationId))?.dimmed ?? false;
  }

  /** The machine's tick and play now (a published camera's still is stamped with them). */
  machineNow(stationId: number): { tick: number; playId: number | null } {
    const running = this.machines.machineOf(stationId);
    return running
      ? { tick: running.tick, playId: this.machines.onStation(stationId)?.play_id ?? null }
      : { tick: 0, playId: null };
  }

  private async station(stationId: number): Promise<StationAccess | null> {
    const now = this.clock.now().getTime();
    const known = this.stations.get(stationId);
    if (known && now - known.readAt < STATION_REFRESH_MS) return known;
    const [row] = await this.db.query<{ station_status: string; station_type: string }>(
      'SELECT station_status, station_type FROM stations WHERE station_id = $1',
      [stationId],
    );
    if (!row) return null;
    const access = {
      dimmed: isMaintenanceStatus(row.station_status),
      gated: row.station_type !== 'normal',
      readAt: now,
    };
    this.stations.set(stationId, access);
    return access;
  }

  /** The picture address of a station's camera (motion_jpeg_front/side), with the media token of a gated station. */
  stillUrl(stationId: number, camera: CameraName, mediaToken: string | null = null): string {
    return `${this.apiPrefix}/stations/${stationId}/camera/${camera}.jpg${mediaToken ? `?k=${mediaToken}` : ''}`;
  }

  /** The spectators' LL-HLS playlist of a station's camera (docs/spectators.md), with the media token of a gated station. */
  hlsUrl(stationId: number, camera: CameraName, mediaToken: string | null = null): string {
    return `${this.apiPrefix}/stations/${stationId}/hls/${camera}/index.m3u8${mediaToken ? `?k=${mediaToken}` : ''}`;
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
        // Beyond the spec: the spectators' HLS (issue 44), absent where the service cannot make it.
        ...(this.hls()
          ? {
              hls_front: this.hlsUrl(stationId, 'front', mediaToken),
              hls_side: this.hlsUrl(stationId, 'side', mediaToken),
            }
          : {}),
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
