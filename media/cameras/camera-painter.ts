import { Worker } from 'node:worker_threads';
import type { CameraName, CameraScene } from './camera-renderer';
import type { PainterAnswer, PainterRequest, PictureKind } from './camera-worker';

export type { PictureKind } from './camera-worker';

/** Draws camera pictures; StationCameras asks it for each distinct picture. */
export interface PictureDrawer {
  draw(kind: PictureKind, camera: CameraName, scene: CameraScene): Promise<Buffer>;
  close(): void;
}

/** After a worker dies, the next one starts at once; after several in a row, with a growing pause. */
const RESTART_PAUSE_MS = { first: 100, max: 5_000 } as const;

/**
 * The camera pictures, drawn in a worker thread (media/cameras/camera-worker.ts) so that the
 * server's event loop never waits for a canvas: drawing a video picture and reading it back takes
 * 2–3 ms, a still 4 ms, about 40 times a second per watched running machine. One worker draws
 * every picture, in the order asked (the machine has two cores: one for the server's loop, the
 * other for the browser in the benchmark, or for this worker and the encoders).
 *
 * The worker starts with the first picture asked for. If it dies (a crash in the canvas library,
 * an uncaught error), the pictures it was drawing are refused, the server goes on, and the next
 * picture asked for starts a new worker: the feed resumes by itself. A worker that dies again and
 * again without drawing anything is started again only after a pause that doubles up to 5 s.
 */
export class CameraPainter implements PictureDrawer {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (bytes: Buffer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private closed = false;
  /** Workers that died in a row without a picture drawn, and when the next may start. */
  private failures = 0;
  private pausedUntil = 0;
  /** Workers that died (not closed by the server); the status call and tests read it. */
  crashes = 0;
  /** Pictures drawn, and the time the worker spent drawing them (ms). */
  drawn = 0;
  drawMs = 0;

  constructor(private readonly log: (message: string) => void = () => undefined) {}

  draw(kind: PictureKind, camera: CameraName, scene: CameraScene): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the camera painter is closed'));
    const worker = this.worker ?? this.start();
    if (!worker) return Promise.reject(new Error('the camera worker is restarting'));
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const request: PainterRequest = { type: 'draw', id, kind, camera, scene };
      worker.postMessage(request);
    });
  }

  /** The worker's thread id while one runs (tests and the status call). */
  get threadId(): number | null {
    return this.worker?.threadId ?? null;
  }

  /** Tests only: makes the worker fail with an uncaught error, as a crash would. */
  crash(): void {
    const request: PainterRequest = { type: 'crash' };
    this.worker?.postMessage(request);
  }

  close(): void {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    this.refuseAll('the camera painter is closed');
    void worker?.terminate();
  }

  private start(): Worker | null {
    if (Date.now() < this.pausedUntil) return null;
    const worker = new Worker(new URL('./camera-worker-boot.mjs', import.meta.url), {
      workerData: { entry: new URL('./camera-worker.ts', import.meta.url).href },
      // Not the process's Node options: the boot loads tsx itself, and an option such as
      // `--input-type` (a server started with `-e`) would keep the worker from starting.
      execArgv: [],
    });
    // The worker never keeps the process alive: a server that closes ends it, one that did not is
    // ended with the process.
    worker.unref();
    worker.on('message', (answer: PainterAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if ('error' in answer) {
        waiting.reject(new Error(answer.error));
        return;
      }
      this.failures = 0;
      this.drawn += 1;
      this.drawMs += answer.ms;
      waiting.resolve(Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength));
    });
    // Without a listener, the worker's uncaught error would be thrown on this thread and end the server.
    worker.on('error', (error) => {
      if (this.worker === worker) this.log(`camera worker failed: ${error.message}`);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.crashes += 1;
      this.failures += 1;
      const pause =
        this.failures <= 1 ? 0 : Math.min(RESTART_PAUSE_MS.max, RESTART_PAUSE_MS.first * 2 ** (this.failures - 2));
      this.pausedUntil = Date.now() + pause;
      this.log(`camera worker ended (exit code ${code}); the next picture starts a new one`);
      this.refuseAll(`the camera worker ended (exit code ${code})`);
    });
    this.worker = worker;
    return worker;
  }

  private refuseAll(reason: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(new Error(reason));
  }
}
