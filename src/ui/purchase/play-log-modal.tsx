import { useRef } from 'react';
import { formatJstDateTime, type PlayLogEntry } from '../../domain';
import type { ModalComponentProps } from '../modals/registry';
import { useDialogName } from '../modals/use-dialog-name';
import { HISTORY_MESSAGES as H } from './purchase.messages';

/** One play's settings log (a sub-modal of the play history): the arm, the assist, the seed, the inputs. */
export default function PlayLogModal({ props }: ModalComponentProps<{ readonly entry: PlayLogEntry }>) {
  const ref = useRef<HTMLDivElement>(null);
  useDialogName(ref, 'play-log-title');
  const p = props.entry;
  const R = H.settingsLogRows;
  const rows: [string, string][] = [
    [R.playId, String(p.play_id)],
    [R.baseArm, p.base_arm_strength.toFixed(2)],
    [R.assist, String(p.assist_level)],
    [R.arm, p.arm_strength.toFixed(2)],
    [R.seed, String(p.seed)],
    [R.inputs, R.inputsCount(p.inputs.length)],
    [R.started, formatJstDateTime(Date.parse(p.started_at))],
    [R.ended, p.ended_at ? formatJstDateTime(Date.parse(p.ended_at)) : '-'],
  ];
  return (
    <div ref={ref} className="modal__body" data-testid="play-log">
      <h2 id="play-log-title" className="dialog__title">
        {H.settingsLogTitle}
      </h2>
      <p>
        <strong>{p.prize_name}</strong> {H.station(p.station_id)}
      </p>
      <dl className="history__log">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
