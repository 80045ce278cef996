import type { PlayLogEntry } from '../../domain';
import { ClipLink } from '../clips/clip-link';
import { MESSAGES } from '../messages';
import { useModals } from '../modals/modal-host';

/** The rows of the player's plays on a station, each with its video [R11-5] (play-record.tsx). */
export default function PlayHistoryList({ list }: { list: readonly PlayLogEntry[] }) {
  const { open } = useModals();
  if (list.length === 0) return <p className="panel__note">{MESSAGES.historyEmpty}</p>;
  return (
    <ol className="history__list">
      {list.map((entry) => (
        <li key={entry.play_id} className="history__row" data-result={entry.result ?? ''}>
          <span className={`history__result history__result--${entry.result ?? 'none'}`}>
            {MESSAGES.historyResult[entry.result ?? ''] ?? '—'}
          </span>
          <span className="history__name">{entry.prize_name}</span>
          <span className="history__detail">
            {MESSAGES.historyRow(MESSAGES.priceOfPlay(entry), entry.arm_strength, entry.assist_level, entry.seed)}{' '}
            <ClipLink
              clip={entry.clip}
              label={entry.prize_name}
              onOpen={() => open('playClip', { playId: entry.play_id })}
            />
          </span>
        </li>
      ))}
    </ol>
  );
}
