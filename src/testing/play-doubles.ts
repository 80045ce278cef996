import { BehaviorSubject, Observable, Subject } from 'rxjs';
import type {
  AnalyticsPort,
  NotificationPort,
  PlayPort,
  RealtimeChannel,
  RealtimeConnectionState,
  RealtimeEvent,
  RealtimePort,
  RtcSessionEvent,
  RtcVideoPort,
  HlsSessionEvent,
  HlsSource,
  HlsVideoPort,
  StillFrame,
  StillFramePort,
} from '../application';
import type { AnalyticsPayload, Camera, ControlAnswer, CraneButton, CraneCommand, WatchKind } from '../domain';
import { Scripted } from './scripted';

/** PlayPort with answers given by the test. */
export class ScriptedPlay extends Scripted<PlayPort> {
  constructor() {
    super('PlayPort');
  }
}

const channelKey = (c: RealtimeChannel): string => {
  switch (c.kind) {
    case 'station':
      return `station:${c.stationId}`;
    case 'kujiBox':
      return `kuji:${c.kujiId}:${c.boxId}`;
    default:
      return c.kind;
  }
};

/**
 * A RealtimePort the test drives: `emit(channel, event)` delivers an event to that channel's
 * subscribers, `joined` lists the channels subscribed now, and each control answers with what
 * the test scripted (`controls.answer('control', { value: { ok: true, … } })`).
 */
export class FakeRealtime implements RealtimePort {
  private readonly events = new Subject<{ key: string; event: RealtimeEvent }>();
  private readonly open = new Map<string, number>();
  readonly state = new BehaviorSubject<RealtimeConnectionState>('open');
  readonly connection$ = this.state.asObservable();
  /** The control answers; its calls are the commands sent. */
  readonly controls = new Scripted<Pick<RealtimePort, 'control'>>('RealtimePort.control');
  /** Every report `watch` made, in order (null: withdrawn). */
  readonly watchReports: ({ readonly stationId: number; readonly kind: WatchKind } | null)[] = [];

  /** Channels subscribed now (by name: top, configured, user, station:N, kuji:K:B). */
  get joined(): string[] {
    return [...this.open.keys()];
  }

  emit(channel: RealtimeChannel, event: RealtimeEvent): void {
    this.events.next({ key: channelKey(channel), event });
  }

  channel(channel: RealtimeChannel): Observable<RealtimeEvent> {
    const key = channelKey(channel);
    return new Observable<RealtimeEvent>((subscriber) => {
      this.open.set(key, (this.open.get(key) ?? 0) + 1);
      const sub = this.events.subscribe((e) => {
        if (e.key === key) subscriber.next(e.event);
      });
      return () => {
        sub.unsubscribe();
        const left = (this.open.get(key) ?? 1) - 1;
        if (left > 0) this.open.set(key, left);
        else this.open.delete(key);
      };
    });
  }

  control(command: {
    readonly playId: number;
    readonly button: CraneButton;
    readonly command: CraneCommand;
  }): Observable<ControlAnswer> {
    return this.controls.port.control(command);
  }

  watch(report: { readonly stationId: number; readonly kind: WatchKind }): Observable<never> {
    return new Observable<never>(() => {
      this.watchReports.push(report);
      return () => this.watchReports.push(null);
    });
  }
}

/**
 * A StillFramePort answering every fetch at once with a frame showing `tick` (set by the test).
 * It counts the frames handed out and released, so a test sees that none leaks.
 */
export class FakeStillFrames implements StillFramePort {
  tick = 0;
  readonly fetched: string[] = [];
  private handed = 0;
  private releasedCount = 0;
  /** When set, fetches stay pending until `deliver()` (to test that requests never pile up). */
  hold = false;
  private pending: (() => void)[] = [];

  /** Frames handed out and not released yet. */
  get live(): number {
    return this.handed - this.releasedCount;
  }

  fetchFrame(url: string): Observable<StillFrame> {
    this.fetched.push(url);
    return new Observable<StillFrame>((subscriber) => {
      const answer = () => {
        this.handed += 1;
        let released = false;
        subscriber.next({
          url: `blob:fake/${this.handed}`,
          tick: this.tick,
          release: () => {
            if (!released) {
              released = true;
              this.releasedCount += 1;
            }
          },
        });
        subscriber.complete();
      };
      if (this.hold) this.pending.push(answer);
      else answer();
      return () => {
        this.pending = this.pending.filter((p) => p !== answer);
      };
    });
  }

  /** Answers the fetches held so far. */
  deliver(): void {
    const waiting = this.pending;
    this.pending = [];
    for (const answer of waiting) answer();
  }
}

/** An RtcVideoPort the test drives per camera: `emit('front', { type: 'connected', stream })`. */
export class FakeRtcVideo implements RtcVideoPort {
  private readonly sessions = new Map<Camera, Subject<RtcSessionEvent>>();
  readonly connects: { camera: Camera; url: string; channel: string }[] = [];
  /** Cameras whose session is connected now. */
  get connected(): Camera[] {
    return [...this.sessions.keys()];
  }

  connect(session: {
    readonly camera: Camera;
    readonly url: string;
    readonly channel: string;
  }): Observable<RtcSessionEvent> {
    this.connects.push({ ...session });
    return new Observable<RtcSessionEvent>((subscriber) => {
      const subject = new Subject<RtcSessionEvent>();
      this.sessions.set(session.camera, subject);
      const sub = subject.subscribe(subscriber);
      return () => {
        sub.unsubscribe();
        if (this.sessions.get(session.camera) === subject) this.sessions.delete(session.camera);
      };
    });
  }

  emit(camera: Camera, event: RtcSessionEvent): void {
    this.sessions.get(camera)?.next(event);
  }
}

/**
 * An HlsVideoPort the test drives per camera: `ready('front')` hands the page a source (its
 * `attached` lists the elements given to it), then `emit('front', { type: 'playing' })`.
 */
export class FakeHlsVideo implements HlsVideoPort {
  private readonly sessions = new Map<Camera, Subject<HlsSessionEvent>>();
  readonly connects: { camera: Camera; url: string }[] = [];
  /** Elements attached to the sources handed out, and not yet taken back. */
  readonly attached: unknown[] = [];
  /** Cameras whose HLS plays (is subscribed) now. */
  get connected(): Camera[] {
    return [...this.sessions.keys()];
  }

  connect(session: { readonly camera: Camera; readonly url: string }): Observable<HlsSessionEvent> {
    this.connects.push({ ...session });
    return new Observable<HlsSessionEvent>((subscriber) => {
      const subject = new Subject<HlsSessionEvent>();
      this.sessions.set(session.camera, subject);
      const sub = subject.subscribe(subscriber);
      return () => {
        sub.unsubscribe();
        if (this.sessions.get(session.camera) === subject) this.sessions.delete(session.camera);
      };
    });
  }

  /** The camera's source is ready: the page may attach its element. */
  ready(camera: Camera): void {
    const source: HlsSource = {
      attach: (element) => {
        this.attached.push(element);
        return () => {
          const at = this.attached.indexOf(element);
          if (at >= 0) this.attached.splice(at, 1);
        };
      },
    };
    this.emit(camera, { type: 'ready', source });
  }

  emit(camera: Camera, event: HlsSessionEvent): void {
    this.sessions.get(camera)?.next(event);
  }
}

/** Records every analytics event sent. */
export class RecordingAnalytics implements AnalyticsPort {
  readonly sent: AnalyticsPayload[] = [];
  send(event: AnalyticsPayload): void {
    this.sent.push(event);
  }
}

/** Notifications the test permits (`granted`) and records. */
export class RecordingNotifications implements NotificationPort {
  readonly shown: { title: string; body: string }[] = [];
  constructor(public granted = true) {}
  async requestPermission(): Promise<boolean> {
    return this.granted;
  }
  notify(title: string, body: string): boolean {
    if (!this.granted) return false;
    this.shown.push({ title, body });
    return true;
  }
}
