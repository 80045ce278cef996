import proxyaddr from '@fastify/proxy-addr';
import type { Server as SocketIOServer } from 'socket.io';
import { stationCameraSchema } from '../../src/contract/operator.schema';
import { instanceViews } from '../realtime/instance-views';
import { roomPlayView } from '../../src/domain';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import { originAllowed } from '../http/security-headers';
import type { AgentCamera } from '../../src/contract/agent.schema';
import { CameraDemand } from '../live/camera-demand';
import { CameraIngest } from '../live/camera-ingest';
import { CameraHls } from '../live/camera-hls';
import type { CameraName } from '../../media/cameras/camera-renderer';
import { CameraStills } from '../live/camera-stills';
import { FeedOwners } from '../live/feed-forward';
import { RtcFeed } from '../live/rtc-feed';
import { SignalingServer, type SignalingTimings } from '../live/signaling';
import { ConnectionLeases } from '../limits/connection-leases';
import { StoreConnectionLeases } from '../limits/store-connection-leases';
import { DEFAULT_SIGNALING_TIMINGS } from '../live/signaling-protocol';
import { StationCameras } from '../play/cameras/station-cameras';
import type { Rooms } from '../rooms/kinds';
import type { RoomHost } from '../rooms/room-host';
import { roomId } from '../rooms/room-ownership';
import type { Store } from '../store/store';

/** The instances' event for the console's camera view. */
export const CAMERA_VIEWS = 'onkure:camera-views';

export interface LiveFeedDeps {
  readonly store: Store;
  /** The instances' socket server (the console's camera view gathers every instance's cameras). */
  readonly io: SocketIOServer;
  /** Sends a station's camera lease to its agent, wherever it is connected (machine-link.ts). */
  readonly cameraLease: (stationId: number, cameras: readonly AgentCamera[], leaseMs: number) => void;
  readonly clock: Clock;
  readonly config: ServerConfig;
  readonly rooms: Rooms;
  readonly roomHost: RoomHost;
  readonly log: (message: string, error?: unknown) => void;
  /** Where the other instances reach this one (the live feed's forwarding), once known. */
  readonly instanceUrl?: (() => string | null) | undefined;
  /** The live feed's signaling deadlines (tests shorten them) and their own clock. */
  readonly signalingTimings?: Partial<SignalingTimings> | undefined;
  readonly signalingClock?: Clock | undefined;
}

/**
 * The live feed (docs/live-feed.md): each station camera's channel, fed by its WHIP publisher
 * (ingest) and forwarded to its viewers over the Sora-compatible signaling, the stills made from its
 * video, the cameras' demand told to the agents, and where each station's feed is served when
 * several instances run (forwarded to its room's instance).
 */
export function createLiveFeed(deps: LiveFeedDeps) {
  const { store, clock, config, rooms, roomHost, log } = deps;
  const cameras: StationCameras = new StationCameras(
    store,
    {
      machineOf: (stationId) => {
        const turn = rooms.peek('station', stationId)?.turn;
        return turn && 'play' in turn ? turn.play.machine : null;
      },
      onStation: (stationId) => {
        const state = rooms.peek('station', stationId);
        return state ? roomPlayView(state, clock.now().getTime()) : null;
      },
    },
    clock,
    config.apiPrefix,
    config.webrtcSignalingUrl,
    (): boolean => rtcFeed.ffmpegPath !== null,
  );
  const feedOwners = new FeedOwners(
    store,
    { distributed: roomHost.distributed, owns: (stationId) => roomHost.owns(roomId('station', stationId)) },
    clock,
    deps.instanceUrl ?? (() => null),
  );
  // The agent publishes a watched camera unless a real camera does (the ingest, made below, knows).
  let ingest: CameraIngest | null = null;
  const demand = new CameraDemand(clock, deps.cameraLease, (stationId, camera) =>
    Boolean(ingest?.hasRealCamera(stationId, camera)),
  );
  const rtcFeed: RtcFeed = new RtcFeed(cameras, { ...config.feed, clock, ffmpeg: config.feed.ffmpegPath, demand });
  const trusted = proxyaddr.compile([...config.trustProxy]);
  const signaling = new SignalingServer(rtcFeed, cameras, {
    clock: deps.signalingClock ?? clock,
    path: config.webrtcSignalingUrl,
    perClient: new ConnectionLeases(
      'signaling:client',
      config.feed.maxConnectionsPerClient,
      new StoreConnectionLeases(store),
      deps.signalingClock ?? clock,
      (message, error) => log(message, error),
    ),
    iceHosts: config.feed.iceHosts,
    originAllowed: (request) => originAllowed(request, config),
    clientAddress: (request) => (request.socket.remoteAddress ? proxyaddr(request, trusted) : 'unknown'),
    ...(roomHost.distributed ? { owners: feedOwners } : {}),
    log: (message, error) => log(message, error),
    ...(deps.signalingTimings ? { timings: deps.signalingTimings } : {}),
  });
  const timings = { ...DEFAULT_SIGNALING_TIMINGS, ...deps.signalingTimings };
  ingest = new CameraIngest(rtcFeed, {
    clock,
    iceHosts: config.feed.iceHosts,
    gatherMs: timings.gatherMs,
    connectMs: timings.answerMs,
    ffmpeg: rtcFeed.ffmpegPath,
    log: (message, error) => log(message, error),
    onRealCameras: (stationId) => demand.refresh(stationId),
  });
  const channelOf = (stationId: number, camera: CameraName) => rtcFeed.channel(stationId, camera);
  const stills = new CameraStills(channelOf, rtcFeed.ffmpegPath, clock);
  const hls = new CameraHls(channelOf, rtcFeed.ffmpegPath, clock, config.feed.hlsH264 === 'remux');
  // The console's view of the cameras: each instance has those of the stations it runs, with what
  // reaches it of their stills and HLS (docs/spectators.md "Counting spectators").
  const cameraViews = instanceViews({
    io: deps.io,
    event: CAMERA_VIEWS,
    distributed: roomHost.distributed,
    clock,
    row: stationCameraSchema,
    key: (row) => `${row.station_id}:${row.camera}`,
    here: () =>
      rtcFeed.cameraStats().map((camera) => ({
        ...camera,
        hls_requests_per_s: hls.requestsPerSecond(camera.station_id, camera.camera),
        stills_requests_per_s: stills.requestsPerSecond(camera.station_id, camera.camera),
      })),
  });
  return { cameras, feedOwners, rtcFeed, signaling, ingest, stills, hls, cameraViews, cameraDemand: demand };
}
