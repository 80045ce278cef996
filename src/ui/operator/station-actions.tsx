import { useState, type FormEvent } from 'react';
import {
  PRIZE_SHAPES,
  type FloorStation,
  type OperatorFloor,
  type PrizeShapeName,
  type SettingsChangeAsk,
} from '../../application/operator';
import {
  SETTINGS_CHANGE_REASON_LABELS,
  SETTINGS_CHANGE_REASONS,
  STAFF_ASSIST_MAX_MISSES,
  settingChangeText,
  settingsChanges,
  STATION_STATUSES,
  type SettingsChangeReason,
  type StationStatus,
} from '../../domain';
import { useConfirm } from './common';
import { OP } from './operator.messages';

const F = OP.floor;

/** Asks the operator to confirm `body`, then runs the action. */
export function useAsk(): (body: string, run: () => Promise<unknown>, danger?: boolean) => Promise<void> {
  const confirm = useConfirm();
  return async (body, run, danger = false) => {
    if (await confirm({ body, danger })) await run();
  };
}

/** A form's submit handler: the page stays, the action runs. */
const submitted = (run: () => Promise<void>) => (event: FormEvent) => {
  event.preventDefault();
  void run();
};

interface ActionProps {
  readonly station: FloorStation;
  readonly floor: OperatorFloor;
  readonly busy: boolean;
}

/**
 * A station's actions, folded away: fault, end the play, the play log, and the forms that set its
 * values (the pause is the machine's "finish this play, then stop", in station-machine.tsx).
 */
export function StationActions({ station: s, floor, busy, onLog }: ActionProps & { readonly onLog: () => void }) {
  const ask = useAsk();
  return (
    <details className="op-actions">
      <summary>{F.actions}</summary>
      <div className="op-actions__row">
        <button
          type="button"
          className="op-button op-button--danger"
          disabled={busy}
          onClick={() => void ask(F.confirm.fault(s.station_id), () => floor.fault(s.station_id), true)}
        >
          {F.fault}
        </button>
        {s.play ? (
          <button
            type="button"
            className="op-button op-button--danger"
            disabled={busy}
            onClick={() =>
              void ask(
                F.confirm.endPlay(s.station_id, s.play!.play_id),
                () => floor.endPlay(s.station_id, s.play!.play_id),
                true,
              )
            }
          >
            {F.endPlay}
          </button>
        ) : null}
        <button type="button" className="op-button" onClick={onLog}>
          {F.playLog}
        </button>
      </div>
      <StatusForm station={s} floor={floor} busy={busy} />
      <NumberActionForm
        label={F.stockValue}
        action={F.restock}
        initial={String(s.stock)}
        limits={{ min: 0, max: 9999, step: 1 }}
        busy={busy}
        confirmBody={(n) => F.confirm.restock(s.station_id, n)}
        run={(n) => floor.restock(s.station_id, n)}
      />
      <SettingsForm station={s} floor={floor} busy={busy} />
      <ChangePrizeForm station={s} floor={floor} busy={busy} />
    </details>
  );
}

function StatusForm({ station: s, floor, busy }: ActionProps) {
  const ask = useAsk();
  const [status, setStatus] = useState<StationStatus>(s.station_status);
  return (
    <form
      className="op-inline-form"
      onSubmit={submitted(() =>
        ask(F.confirm.status(s.station_id, OP.stationStatus[status]), () => floor.setStatus(s.station_id, status)),
      )}
    >
      <label className="op-field">
        <span>{F.newStatus}</span>
        <select value={status} onChange={(e) => setStatus(e.target.value as StationStatus)}>
          {STATION_STATUSES.map((v) => (
            <option key={v} value={v}>
              {OP.stationStatus[v]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="op-button" disabled={busy}>
        {F.setStatus}
      </button>
    </form>
  );
}

function ChangePrizeForm({ station: s, floor, busy }: ActionProps) {
  const ask = useAsk();
  const [prizeName, setPrizeName] = useState(s.prize_name);
  const [shape, setShape] = useState<PrizeShapeName>('plush');
  const [prizeStock, setPrizeStock] = useState(String(s.stock));
  return (
    <form
      className="op-inline-form op-inline-form--wide"
      onSubmit={submitted(() =>
        ask(F.confirm.changePrize(s.station_id, prizeName), () =>
          floor.changePrize(s.station_id, { prize_name: prizeName, prize_shape: shape, stock: Number(prizeStock) }),
        ),
      )}
    >
      <label className="op-field">
        <span>{F.prizeName}</span>
        <input required maxLength={100} value={prizeName} onChange={(e) => setPrizeName(e.target.value)} />
      </label>
      <label className="op-field">
        <span>{F.prizeShape}</span>
        <select value={shape} onChange={(e) => setShape(e.target.value as PrizeShapeName)}>
          {PRIZE_SHAPES.map((v) => (
            <option key={v} value={v}>
              {OP.shapes[v]}
            </option>
          ))}
        </select>
      </label>
      <label className="op-field">
        <span>{F.stockValue}</span>
        <input
          type="number"
          min={0}
          max={9999}
          step={1}
          required
          value={prizeStock}
          onChange={(e) => setPrizeStock(e.target.value)}
        />
      </label>
      <button type="submit" className="op-button" disabled={busy}>
        {F.changePrize}
      </button>
    </form>
  );
}

/** One number and the action that sets it (a station's stock, its arm strength), confirmed before it runs. */
/**
 * The arm strength and the price, with the reason players will read [R11-6]: in force at once
 * between runs; while a player is in a run, when it ends (the card then shows it waiting).
 */
function SettingsForm({ station: s, floor, busy }: ActionProps) {
  const ask = useAsk();
  const [arm, setArm] = useState(String(s.arm_strength ?? 0.5));
  const [price, setPrice] = useState(s.play_price === undefined ? '' : String(s.play_price));
  const [assistMisses, setAssistMisses] = useState(s.assist_misses === undefined ? '' : String(s.assist_misses));
  const [reason, setReason] = useState<SettingsChangeReason>('adjustment');
  const change = (): SettingsChangeAsk => ({
    ...(arm === '' ? {} : { armStrength: Number(arm) }),
    ...(price === '' ? {} : { playPrice: Number(price) }),
    ...(assistMisses === '' ? {} : { assistMisses: Number(assistMisses) }),
    reason,
  });
  return (
    <form
      className="op-inline-form"
      data-testid="op-settings-form"
      onSubmit={submitted(() => {
        const asked = change();
        const text = settingsChanges(
          {
            armStrength: s.arm_strength ?? Number.NaN,
            playPrice: s.play_price ?? Number.NaN,
            prizeName: s.prize_name,
            prizeShape: 'box',
            ...(s.assist_misses === undefined ? {} : { assistMisses: s.assist_misses }),
          },
          { armStrength: asked.armStrength, playPrice: asked.playPrice, assistMisses: asked.assistMisses },
        )
          .map(settingChangeText)
          .join('、');
        return ask(F.confirm.settings(s.station_id, text || F.noChange), () =>
          floor.stationSettings(s.station_id, asked),
        );
      })}
    >
      <label className="op-field">
        <span>{F.armValue}</span>
        <input type="number" min={0} max={1} step={0.01} value={arm} onChange={(e) => setArm(e.target.value)} />
      </label>
      <label className="op-field">
        <span>{F.priceValue}</span>
        <input type="number" min={0} max={100000} step={1} value={price} onChange={(e) => setPrice(e.target.value)} />
      </label>
      <label className="op-field">
        <span>{F.assistMissesValue}</span>
        <input
          type="number"
          min={0}
          max={STAFF_ASSIST_MAX_MISSES}
          step={1}
          value={assistMisses}
          onChange={(e) => setAssistMisses(e.target.value)}
        />
      </label>
      <label className="op-field">
        <span>{F.reason}</span>
        <select value={reason} onChange={(e) => setReason(e.target.value as SettingsChangeReason)}>
          {SETTINGS_CHANGE_REASONS.map((r) => (
            <option key={r} value={r}>
              {SETTINGS_CHANGE_REASON_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        className="op-button"
        disabled={busy || (arm === '' && price === '' && assistMisses === '')}
      >
        {F.settings}
      </button>
    </form>
  );
}

function NumberActionForm({
  label,
  action,
  initial,
  limits,
  busy,
  confirmBody,
  run,
}: {
  readonly label: string;
  readonly action: string;
  readonly initial: string;
  readonly limits: { readonly min: number; readonly max: number; readonly step: number };
  readonly busy: boolean;
  readonly confirmBody: (value: number) => string;
  readonly run: (value: number) => Promise<unknown>;
}) {
  const ask = useAsk();
  const [value, setValue] = useState(initial);
  return (
    <form
      className="op-inline-form"
      onSubmit={submitted(() => ask(confirmBody(Number(value)), () => run(Number(value))))}
    >
      <label className="op-field">
        <span>{label}</span>
        <input
          type="number"
          min={limits.min}
          max={limits.max}
          step={limits.step}
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" className="op-button" disabled={busy}>
        {action}
      </button>
    </form>
  );
}
