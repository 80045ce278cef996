import { TOKENS } from '../../application';
import { formatJstDateTime, formatThousands } from '../../domain';
import { useScopedUseCase } from '../di/container-context';
import type { ModalComponentProps } from '../modals/registry';
import { PagedHistoryModal } from './paged-history-modal';
import { PlaySettingsLog } from './play-settings-log';
import { ClipLink } from '../clips/clip-link';
import { HISTORY_MESSAGES as H } from './purchase.messages';

/**
 * The play history: each finished play (station, prize, time, result, charge) with its settings log
 * and its video (opened in the history's place: it is already the sub-modal over the menu [R2.5-1]).
 */
export default function PlayHistoryModal({ swap }: ModalComponentProps<Record<never, never>>) {
  const history = useScopedUseCase(TOKENS.PlayHistory);
  return (
    <PagedHistoryModal id="play-history" title={H.playTitle} empty={H.playEmpty} history={history}>
      {(plays) => (
        <ul className="history__list">
          {plays.map((p) => (
            <li key={p.play_id} className="history__play" data-result={p.result ?? ''}>
              <div>
                <strong>{p.prize_name}</strong>
                <small>{H.stationAt(p.station_id, formatJstDateTime(Date.parse(p.started_at)))}</small>
              </div>
              <div className="history__play-side">
                <span className={`chip chip--small history__result--${p.result ?? ''}`}>
                  {p.result ? (H.result[p.result] ?? '') : ''}
                </span>
                <span>
                  {p.currency === 'free'
                    ? H.free
                    : p.daily_free
                      ? H.dailyFree
                      : H.charge(formatThousands(p.price), p.currency)}
                </span>
                <ClipLink clip={p.clip} label={p.prize_name} onOpen={() => swap('playClip', { playId: p.play_id })} />
              </div>
              <PlaySettingsLog entry={p} />
            </li>
          ))}
        </ul>
      )}
    </PagedHistoryModal>
  );
}
