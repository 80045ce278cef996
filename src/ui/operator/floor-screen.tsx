import { useEffect, useState } from 'react';
import {
  OPERATOR_TOKENS,
  type ActionState,
  type FloorActionName,
  type StationChange,
} from '../../application/operator';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { ActionOutcome, LoadState, useScreenTitle } from './common';
import { OP } from './operator.messages';
import { PlayLogPanel } from './play-log-panel';
import { StationCard } from './station-card';
import { AssistQueue } from './staff-assists';

const F = OP.floor;

function describeFloorAction(action: ActionState<FloorActionName>): string {
  const r = action.result;
  const refund = (c: StationChange) =>
    c.refunded_play_id === null ? F.done.noRefund : F.done.refunded(c.refunded_play_id);
  switch (action.name) {
    case 'fault':
      return `${F.done.fault} ${refund(r as StationChange)}`;
    case 'endPlay':
      return `${F.done.endPlay} ${refund(r as StationChange)}`;
    case 'removeFromLine':
      return r ? F.done.removeFromLine : F.done.removeFromLineNone;
    case 'pause':
      return r ? F.done.pause : F.done.resume;
    case 'settings':
      return (r as StationChange).settings_pending === 1 ? F.done.settingsPending : F.done.settings;
    case 'status':
    case 'restock':
    case 'changePrize':
    case 'strayAward':
    case 'strayReturn':
    case 'assistDone':
    case 'assistDeclined':
      return F.done[action.name];
    default:
      return '';
  }
}

/** フロア: one card per station, live, with the station actions and the play log with replays. */
export function FloorScreen() {
  useScreenTitle(F.title);
  const floor = useScopedUseCase(OPERATOR_TOKENS.OperatorFloor);
  const log = useScopedUseCase(OPERATOR_TOKENS.OperatorPlayLog);
  const state = useObservableState(floor.state$, floor.snapshot);
  useEffect(() => floor.start(), [floor]);
  const machines = useScopedUseCase(OPERATOR_TOKENS.OperatorMachines);
  const machinesState = useObservableState(machines.state$, machines.snapshot);
  useEffect(() => {
    // The agents are read every 2 s while the page is visible, not while it is hidden.
    const onVisibility = () => machines.setVisible(document.visibilityState !== 'hidden');
    onVisibility();
    machines.start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [machines]);
  const { stations, readAt, live } = state.data;
  const [onlyActive, setOnlyActive] = useState(false);
  const shown = onlyActive
    ? stations.filter((s) => s.play || s.line.length > 0 || s.paused || s.station_status !== 'open')
    : stations;
  return (
    <section aria-labelledby="op-floor-title" className="op-screen">
      <div className="op-screen__head">
        <h1 id="op-floor-title">{F.title}</h1>
        <p className={live ? 'op-badge op-badge--ok' : 'op-badge'} data-testid="op-floor-live">
          {live ? F.live : F.notLive}
        </p>
        <button type="button" className="op-button" onClick={() => void floor.refresh()}>
          {OP.reload}
        </button>
      </div>
      <div className="op-inline-form">
        <label className="op-check">
          <input type="checkbox" checked={onlyActive} onChange={(e) => setOnlyActive(e.target.checked)} />
          <span>{F.onlyActive}</span>
        </label>
        <p className="op-note" aria-live="polite">
          {F.shown(shown.length, stations.length)}
        </p>
      </div>
      <ActionOutcome action={state.action} describe={describeFloorAction} onDismiss={() => floor.dismissAction()} />
      {machinesState.status === 'error' ? (
        <p role="alert" className="op-alert op-alert--error" data-testid="op-machines-error">
          {OP.machine.readFailed(machinesState.error ?? '')}
        </p>
      ) : null}
      {stations.length === 0 || state.status === 'error' ? (
        <LoadState state={state} onRetry={() => void floor.refresh()} />
      ) : null}
      <AssistQueue stations={stations} floor={floor} readAt={readAt} busy={state.action.status === 'running'} />
      <ul className="op-cards" aria-label={F.title}>
        {shown.map((s) => (
          <li key={s.station_id} className="op-card op-station" data-testid="op-station" data-station-id={s.station_id}>
            <StationCard
              station={s}
              floor={floor}
              readAt={readAt}
              busy={state.action.status === 'running'}
              onLog={() => void log.open(s.station_id)}
              machines={machines}
              machinesState={machinesState}
            />
          </li>
        ))}
      </ul>
      <PlayLogPanel log={log} />
    </section>
  );
}
