import { repeatEvery, type Clock, type ScheduledTask } from '../clock';
import type { CameraName } from '../../media/cameras/camera-renderer';

/** A tool made of a camera's video while it is asked for (the stills' decoder, the HLS encoder). */
export interface CameraTool {
  /** When it was last asked for (the clock's ms). */
  askedAt: number;
  readonly pid: number | undefined;
  stop(): void;
}

/**
 * The running tools of one kind, one per station camera, each stopped `idleMs` after it was last
 * asked for (a sweep every second, only while any runs). A tool removes itself with `forget` when it
 * ends on its own.
 */
export class CameraToolPool<T extends CameraTool> {
  private readonly tools = new Map<string, T>();
  private sweep: ScheduledTask | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly idleMs: number,
  ) {}

  static key(stationId: number, camera: CameraName): string {
    return `${stationId}:${camera}`;
  }

  get(key: string): T | undefined {
    return this.tools.get(key);
  }

  add(key: string, tool: T): T {
    this.tools.set(key, tool);
    this.sweeping();
    return tool;
  }

  /** The tool ended: it is no longer the camera's (unless another took its place). */
  forget(key: string, tool: T): void {
    if (this.tools.get(key) === tool) this.tools.delete(key);
  }

  /** Each running tool with its station and camera (tests, the console). */
  entries(): { stationId: number; camera: CameraName; tool: T }[] {
    return [...this.tools.entries()].map(([key, tool]) => {
      const [station, camera] = key.split(':') as [string, CameraName];
      return { stationId: Number(station), camera, tool };
    });
  }

  close(): void {
    this.sweep?.cancel();
    this.sweep = null;
    for (const tool of [...this.tools.values()]) tool.stop();
  }

  private sweeping(): void {
    if (this.sweep) return;
    this.sweep = repeatEvery(this.clock, 1_000, () => {
      const now = this.clock.now().getTime();
      for (const tool of [...this.tools.values()]) if (now - tool.askedAt >= this.idleMs) tool.stop();
      if (this.tools.size === 0) {
        this.sweep?.cancel();
        this.sweep = null;
      }
    });
  }
}
