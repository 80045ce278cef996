import { CAMERA_LEASE, type AgentCamera } from '../../src/contract/agent.schema';
import { repeatEvery, type Clock, type ScheduledTask } from '../clock';

/** Stills asked for keep a camera wanted this long after the last ask. */
const TOUCH_MS = 5_000;

/**
 * Which station cameras someone watches, told to the stations' agents as leases (docs/agent-protocol.md
 * "Cameras"): an agent that publishes its cameras (the sim driver's painted ones) publishes exactly
 * the watched ones. A camera is wanted while its channel has viewers (rtc sessions, the stills
 * decoder) or its stills were asked for within 5 s. A change goes out at once; a station still
 * wanted is told again every CAMERA_LEASE.renewMs (a lease lasts leaseMs, so an agent that missed a
 * message, reconnected, or lost this instance stops within it); a station no longer wanted is told
 * an empty list once.
 */
export class CameraDemand {
  private readonly viewers = new Map<string, number>();
  private readonly touched = new Map<string, number>();
  private readonly told = new Map<number, string>();
  private renew: ScheduledTask | null = null;

  constructor(
    private readonly clock: Clock,
    /** Sends a station's lease to its agent (wherever it is connected). */
    private readonly send: (stationId: number, cameras: readonly AgentCamera[], leaseMs: number) => void,
    /** Whether a real camera publishes it: the agent's stand-in is not wanted then. */
    private readonly realCamera: (stationId: number, camera: AgentCamera) => boolean = () => false,
  ) {}

  /** A station's real cameras changed: its agent is told what it should publish now. */
  refresh(stationId: number): void {
    this.update(stationId);
  }

  /** A camera's channel has `count` viewers now. */
  viewersOf(stationId: number, camera: AgentCamera, count: number): void {
    const key = `${stationId}:${camera}`;
    if (count > 0) this.viewers.set(key, count);
    else this.viewers.delete(key);
    this.update(stationId);
  }

  /** A camera's stills were asked for. */
  touch(stationId: number, camera: AgentCamera): void {
    this.touched.set(`${stationId}:${camera}`, this.clock.now().getTime() + TOUCH_MS);
    this.update(stationId);
  }

  /** The cameras of a station wanted of its agent now: watched, and no real camera publishes them. */
  wanted(stationId: number): AgentCamera[] {
    const now = this.clock.now().getTime();
    return (['front', 'side'] as const).filter((camera) => {
      const key = `${stationId}:${camera}`;
      return (this.viewers.has(key) || (this.touched.get(key) ?? 0) > now) && !this.realCamera(stationId, camera);
    });
  }

  close(): void {
    this.renew?.cancel();
    this.renew = null;
  }

  private update(stationId: number): void {
    const cameras = this.wanted(stationId);
    const said = cameras.join(',');
    if (this.told.get(stationId) === said || (said === '' && !this.told.has(stationId))) return;
    if (said === '') this.told.delete(stationId);
    else this.told.set(stationId, said);
    this.send(stationId, cameras, CAMERA_LEASE.leaseMs);
    this.renewing();
  }

  private renewing(): void {
    if (this.renew || this.told.size === 0) return;
    this.renew = repeatEvery(this.clock, CAMERA_LEASE.renewMs, () => {
      const now = this.clock.now().getTime();
      for (const [key, until] of this.touched) if (until <= now) this.touched.delete(key);
      for (const stationId of [...this.told.keys()]) {
        const cameras = this.wanted(stationId);
        if (cameras.length === 0) this.told.delete(stationId);
        else this.told.set(stationId, cameras.join(','));
        this.send(stationId, cameras, CAMERA_LEASE.leaseMs);
      }
      if (this.told.size === 0) {
        this.renew?.cancel();
        this.renew = null;
      }
    });
  }
}
