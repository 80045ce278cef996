import type { Container } from 'inversify';
import {
  CranePlay,
  LiveFeed,
  PlayCommandLane,
  PlayMessages,
  PlayRecord,
  PlayerSettings,
  StationLine,
  StationPlay,
  StationSettingsHistory,
  TOKENS,
} from '../../application';
import {
  BrowserNotifications,
  FetchStillFrames,
  HlsJsVideo,
  KyPlay,
  KyReservation,
  SoraRtcVideo,
} from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** The play screen: the line, the live feed and remote play. */
export const playFeature: FeatureModule = {
  bind(container: Container, { config, host, http, session }: FeatureDeps) {
    container.bind(TOKENS.ReservationPort).toConstantValue(new KyReservation(http));
    container.bind(TOKENS.PlayPort).toConstantValue(new KyPlay(http, session));
    container.bind(TOKENS.StillFramePort).toConstantValue(new FetchStillFrames(host.fetch, URL, config.origin));
    container.bind(TOKENS.RtcVideoPort).toConstantValue(new SoraRtcVideo(config.origin));
    container.bind(TOKENS.HlsVideoPort).toConstantValue(new HlsJsVideo(config.origin));
    container.bind(TOKENS.NotificationPort).toConstantValue(new BrowserNotifications());
    container.bind(TOKENS.LiveFeed).to(LiveFeed).inTransientScope();
    container.bind(TOKENS.StationPlay).to(StationPlay).inTransientScope();
    // The play screen's parts: one each per screen, shared by the parts of that screen (request scope).
    container.bind(TOKENS.StationLine).to(StationLine).inRequestScope();
    container.bind(TOKENS.CranePlay).to(CranePlay).inRequestScope();
    container.bind(TOKENS.PlayerSettings).to(PlayerSettings).inRequestScope();
    container.bind(TOKENS.PlayRecord).to(PlayRecord).inRequestScope();
    container.bind(TOKENS.PlayMessages).to(PlayMessages).inRequestScope();
    container.bind(TOKENS.PlayCommandLane).to(PlayCommandLane).inRequestScope();
    container.bind(TOKENS.StationSettingsHistory).to(StationSettingsHistory).inTransientScope();
  },
};
