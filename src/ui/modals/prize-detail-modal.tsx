import { Link } from 'react-router';
import { isMaintenanceStatus, type PrizeItem } from '../../domain';
import { MESSAGES } from '../messages';
import { STOREFRONT_MODALS as M } from '../storefront.messages';
import type { ModalComponentProps } from './registry';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';

/**
 * Prize detail (spec §2.5): a station's prize with its picture, character, price, kind and state, and
 * the way to its play screen (which asks the server about disclosure and the VIP gate, R5-2).
 */
export default function PrizeDetailModal({
  props,
}: ModalComponentProps<{ readonly item: PrizeItem; readonly href: string }>) {
  const { item, href } = props;
  const state = isMaintenanceStatus(item.station_status)
    ? M.status.maintenance
    : item.playing
      ? M.status.playing
      : M.status.normal;
  return (
    <div className="modal__body modal__body--scroll prize-detail">
      <h2 className="dialog__title">{M.prizeDetailTitle}</h2>
      <Picture
        className="prize-detail__image"
        src={item.img_url}
        alt={item.prize_name}
        width={240}
        height={240}
        layout={PICTURE_LAYOUTS.detail}
      />
      <h3 className="prize-detail__name">{item.prize_name}</h3>
      <dl className="prize-detail__facts">
        <dt>{MESSAGES.characters}</dt>
        <dd>{MESSAGES.characterLine(item.character, item.sub_character)}</dd>
        <dt>{M.stationTypeLabel}</dt>
        <dd>
          {M.kindLine(
            M.stationType[item.type] ?? item.type,
            M.designated[item.designated_type] ?? item.designated_type,
          )}
        </dd>
        <dt>{M.priceLabel}</dt>
        <dd>{item.designated_type === 'practice' ? MESSAGES.practiceFree : MESSAGES.playPrice(item.play_price)}</dd>
        <dt>{M.stationNoLabel}</dt>
        <dd>{item.station_admin_id}</dd>
      </dl>
      <p className="prize-detail__state" role="status">
        {item.is_get ? M.kindLine(state, M.gotIt) : state}
      </p>
      {/* The play screen replaces the modal's history entry; the host closes the modal there. */}
      <Link className="button" to={href} replace>
        {M.playThis}
      </Link>
    </div>
  );
}
