import { useEffect } from 'react';
import { Tutorial } from '../account/account-gates';
import { useLocation, useParams } from 'react-router';
import { TOKENS, type StationSnapshot } from '../../application';
import { playScreenStationId } from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { MESSAGES } from '../messages';
import { NotFoundPage } from '../pages/not-found-page';
import { PlayMethodButton } from '../modals/document-links';
import { DialogChip } from '../modals/dialog-chip';
import { useModals } from '../modals/modal-host';
import { usePreloaded } from '../ssr/preload';
import { CraneButtons } from './crane-buttons';
import { LiveCameras } from './live-cameras';
import { MachineStatus } from './machine-status';
import { PlayMessagesView } from './play-messages-view';
import { PLAY_SCREEN_MESSAGES } from './play-screen.messages';
import { AssistGauge, PlayHistory } from './play-record';
import { SettingsPanel } from './settings-panel';
import { TurnPanel } from './turn-panel';

/** The station id of /game/{stationId} or of a play path for this build target; null when it is not one. */
function useStationId(): number | null {
  const { stationId } = useParams();
  const { pathname } = useLocation();
  const { target } = useInjection(TOKENS.AppConfig);
  return playScreenStationId(target, stationId, pathname);
}

/** /play/{tag...}/{stationId} and /game/{stationId} (§2.1): a station's play screen. */
export function PlayPage() {
  const stationId = useStationId();
  if (stationId === null) return <NotFoundPage />;
  return <StationPlayScreen key={stationId} stationId={stationId} />;
}

/** One station's screen: its use-case opened for the page's lifetime, and the parts, one per job. */
function StationPlayScreen({ stationId }: { stationId: number }) {
  const preloaded = usePreloaded<StationSnapshot>();
  const screen = useScopedUseCase(TOKENS.StationPlay, (p) => preloaded?.stationId === stationId && p.adopt(preloaded));
  const state = useObservableState(screen.state$, screen.snapshot);
  const line = useObservableState(screen.line.state$, screen.line.snapshot);
  const run = useObservableState(screen.play.state$, screen.play.snapshot);
  const { busy } = useObservableState(screen.lane.state$, screen.lane.snapshot);

  useEffect(() => {
    void screen.open(stationId);
  }, [screen, stationId]);

  // The refresh rate follows the page's visibility [R9-8].
  useEffect(() => {
    const onVisibility = () => screen.feed.setBrowsing(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [screen]);

  const station = state.station;
  const myPlay = run.play;
  return (
    <div className="play-screen" data-testid="play-screen" data-station-id={stationId}>
      <header className="play-screen__head">
        <h1 className="play-screen__title">{station?.prize_name ?? MESSAGES.playScreen}</h1>
        <p className="play-screen__meta">
          <span data-testid="viewers">{MESSAGES.viewers(line.viewers)}</span>
          <span>{MESSAGES.lineLength(line.lineLength)}</span>
          {myPlay ? <span>{MESSAGES.armStrength(myPlay.arm_strength)}</span> : null}
        </p>
        <div className="play-screen__links">
          <PlayMethodButton />
          <SettingsHistoryButton stationId={stationId} />
        </div>
      </header>
      {/* The guide gives way once the player's own play starts: it would push the controls down. */}
      {myPlay ? null : <Tutorial name="tutorial_play" />}
      <div className="play-screen__grid">
        <section className="play-screen__stage">
          <LiveCameras screen={screen} latencyMs={run.latencyMs} posters={state.posters} />
          <MachineStatus run={run} />
          <CraneButtons crane={screen.play} run={run} />
        </section>
        <aside className="play-screen__side">
          <TurnPanel screen={screen} station={station} line={line} run={run} busy={busy} />
          <AssistGauge record={screen.record} />
          <SettingsPanel settings={screen.settings} />
          <PlayHistory record={screen.record} signedIn={state.signedIn} />
        </aside>
      </div>
      <PlayMessagesView messages={screen.messages} />
    </div>
  );
}

/** The station's public settings history [R11-6]. */
function SettingsHistoryButton({ stationId }: { stationId: number }) {
  const { open } = useModals();
  return (
    <DialogChip testId="open-settings-history" onOpen={() => open('settingsHistory', { stationId })}>
      {PLAY_SCREEN_MESSAGES.settingsHistory}
    </DialogChip>
  );
}

export default PlayPage;
