import { formatJstDateTime, STAFF_ASSIST_OUTCOME_LABELS, type PlayLogEntry } from '../../domain';
import { HISTORY_MESSAGES as H } from './purchase.messages';

/**
 * One play's settings log inside the play history (the arm, the assist, the seed, the inputs),
 * opened in place: the history is already a sub-modal when it comes from the menu, and no third
 * modal may open [R2.5-1].
 */
export function PlaySettingsLog({ entry: p }: { entry: PlayLogEntry }) {
  const R = H.settingsLogRows;
  const rows: [string, string][] = [
    [R.playId, String(p.play_id)],
    [R.baseArm, p.base_arm_strength.toFixed(2)],
    [R.assist, String(p.assist_level)],
    [R.arm, p.arm_strength.toFixed(2)],
    // The station's settings version, published in its settings history [R11-6].
    ...(p.settings_version === undefined || p.settings_version === null
      ? []
      : ([[R.settingsVersion, R.settingsVersionValue(p.settings_version)]] as [string, string][])),
    // The staff assist asked after this play, and how it ended [R11-9].
    ...(p.staff_assist
      ? ([
          [
            R.staffAssist,
            R.staffAssistValue(
              p.staff_assist.misses,
              p.staff_assist.status === 'asked'
                ? R.staffAssistWaiting
                : STAFF_ASSIST_OUTCOME_LABELS[p.staff_assist.status],
            ),
          ],
        ] as [string, string][])
      : []),
    [R.seed, String(p.seed)],
    [R.inputs, R.inputsCount(p.inputs.length)],
    [R.started, formatJstDateTime(Date.parse(p.started_at))],
    [R.ended, p.ended_at ? formatJstDateTime(Date.parse(p.ended_at)) : '-'],
  ];
  return (
    <details className="history__details" data-testid="play-log">
      <summary>{H.settingsLog}</summary>
      <dl className="history__log">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
