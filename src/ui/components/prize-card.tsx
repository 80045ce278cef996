import { Link } from 'react-router';
import { isMaintenanceStatus, type PrizeItem } from '../../domain';
import { MESSAGES } from '../messages';
import { STOREFRONT_MODALS } from '../storefront.messages';
import { imageLoading } from './image-loading';
import { Picture, PICTURE_LAYOUTS } from './picture';

/**
 * One station in a catalogue grid, linking to its play screen. Prize names are rendered as text,
 * never as HTML. Every card opens directly; for a station that is not normal (disclosure 1: VIP,
 * exclusive) the play screen asks the server, which answers the VIP gate's popup [R5-2]. With
 * `onDetails` a details button shows (the catalogue opens the prize detail modal with it).
 */
export function PrizeCard({
  item,
  href,
  onDetails,
  eager = false,
  lobby = null,
}: {
  item: PrizeItem;
  href: string;
  onDetails?: (() => void) | undefined;
  /** The lobby's live numbers (issue 45): who watches and how many wait, once the page knows them. */
  lobby?: { readonly viewers: number; readonly line: number } | null;
  /** A card in the first screen: its picture loads at once (the page's LCP element is one of them). */
  eager?: boolean;
}) {
  const badges: { label: string; tone: string }[] = [];
  if (item.new) badges.push({ label: MESSAGES.badgeNew, tone: 'new' });
  if (item.type === 'vip') badges.push({ label: MESSAGES.badgeVip, tone: 'vip' });
  if (item.type === 'exclusive') badges.push({ label: MESSAGES.badgeExclusive, tone: 'exclusive' });
  if (item.natia) badges.push({ label: MESSAGES.badgeNatia, tone: 'natia' });
  if (item.little) badges.push({ label: MESSAGES.badgeLittle, tone: 'little' });
  const inMaintenance = isMaintenanceStatus(item.station_status);
  return (
    <article
      className="prize-card"
      data-testid="prize-card"
      data-station-id={item.station_id}
      data-disclosure={item.disclosure}
    >
      <Link className="prize-card__link" to={href} aria-label={item.prize_name} />
      <div className="prize-card__image">
        <Picture
          src={item.img_url}
          alt={item.prize_name}
          width={240}
          height={240}
          layout={PICTURE_LAYOUTS.card}
          {...imageLoading(eager)}
        />
        {item.playing ? (
          <span className="prize-card__status prize-card__status--playing">{MESSAGES.badgePlaying}</span>
        ) : null}
        {inMaintenance ? (
          <span className="prize-card__status prize-card__status--maintenance">{MESSAGES.badgeMaintenance}</span>
        ) : null}
      </div>
      <div className="prize-card__body">
        {badges.length > 0 ? (
          <ul className="prize-card__badges">
            {badges.map((b) => (
              <li key={b.tone} className={`badge badge--${b.tone}`}>
                {b.label}
              </li>
            ))}
          </ul>
        ) : null}
        <h3 className="prize-card__name">{item.prize_name}</h3>
        <p className="prize-card__character">{MESSAGES.characterLine(item.character, item.sub_character)}</p>
        <p className="prize-card__price">
          {item.designated_type === 'practice' ? MESSAGES.practiceFree : MESSAGES.playPrice(item.play_price)}
        </p>
        {lobby ? (
          <p className="prize-card__lobby" data-testid="prize-card-lobby">
            {MESSAGES.lobbyNumbers(lobby.viewers, lobby.line)}
          </p>
        ) : null}
        {onDetails ? (
          <button
            type="button"
            className="prize-card__details"
            aria-label={STOREFRONT_MODALS.prizeDetailOpen(item.prize_name)}
            onClick={onDetails}
          >
            {STOREFRONT_MODALS.details}
          </button>
        ) : null}
      </div>
    </article>
  );
}
