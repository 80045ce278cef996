import type { ReactNode } from 'react';
import { formatJstDateTime, storageDaysLeft, type WonPrize } from '../../domain';
import { DELIVERY as D } from './delivery.messages';

/** Days left at which a prize's storage line turns to a warning (the 7-day notice) [R10-5]. */
const SOON_DAYS = 7;

/**
 * One won prize as the prize box and the kind modals show it: picture, name, where it came from
 * (crane, kuji with its name, order-made), when, its type, its state and, while it waits, the end of
 * its storage period [R10-5]. `control` is the choice box of the before list.
 */
export function PrizeLine({ prize, now, control }: { prize: WonPrize; now: number; control?: ReactNode }) {
  const keepUntil = prize.keep_until ? Date.parse(prize.keep_until) : null;
  const waiting = prize.delivery_status === 'not_requested' && keepUntil !== null;
  const days = keepUntil !== null ? storageDaysLeft(keepUntil, now) : 0;
  return (
    <li
      className="prize-line"
      data-testid="prize-line"
      data-status={prize.delivery_status}
      data-id={prize.play_history_id}
    >
      {control}
      {prize.img_url ? (
        <img className="prize-line__img" src={prize.img_url} alt="" width={64} height={64} loading="lazy" />
      ) : (
        <svg className="prize-line__img prize-line__img--none" viewBox="0 0 64 64" aria-hidden="true">
          <rect x="14" y="28" width="36" height="24" rx="3" fill="#f6c1cf" />
          <rect x="10" y="20" width="44" height="10" rx="3" fill="#e2557d" />
          <rect x="29" y="20" width="6" height="32" fill="#fff3" />
          <path d="M32 20c-4-8-14-8-12-1 1 3 8 2 12 1zm0 0c4-8 14-8 12-1-1 3-8 2-12 1z" fill="#e2557d" />
        </svg>
      )}
      <div className="prize-line__body">
        <p className="prize-line__name">{prize.product_name}</p>
        <p className="prize-line__meta">
          <span>
            {prize.kuji_name ? `${D.kind[prize.prize_kind]}「${prize.kuji_name}」` : D.kind[prize.prize_kind]}
          </span>
          {prize.prize_kind === 'kuji' ? <span>{D.kujiCount(prize.prize_count)}</span> : null}
          {prize.prize_type === 'digital' ? <span className="badge">{D.digital}</span> : null}
          {prize.prize_type === 'direct' ? <span className="badge">{D.direct}</span> : null}
          {prize.is_reservation_delivery === 1 ? <span className="badge">{D.reservation}</span> : null}
          <span>{D.wonAt(formatJstDateTime(Date.parse(prize.won_at)))}</span>
        </p>
        {prize.prize_contact_number ? (
          <p className="prize-line__keep" data-testid="prize-tracking">
            {D.tracking(prize.prize_contact_number)}
          </p>
        ) : null}
        {waiting ? (
          <p
            className={`prize-line__keep${days <= SOON_DAYS ? ' prize-line__keep--soon' : ''}`}
            data-testid="prize-keep-until"
          >
            {D.keepUntil(formatJstDateTime(keepUntil), days)}
          </p>
        ) : null}
      </div>
      <span className="prize-line__status" data-testid="prize-status">
        {prize.prize_type === 'digital' && prize.delivery_status === 'not_requested'
          ? D.digital
          : D.status[prize.delivery_status]}
      </span>
    </li>
  );
}
