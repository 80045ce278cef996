import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';

/** The menu (spec §2.5 menu top): the other modals a player reaches from the header. */
export default function MenuTopModal({ open }: ModalComponentProps<Record<never, never>>) {
  return (
    <nav className="modal__body" aria-label={MESSAGES.menu}>
      <h2 className="dialog__title">{MESSAGES.menu}</h2>
      <ul className="menu-list">
        <li><button type="button" className="menu-list__item" onClick={() => open('search')}>{MESSAGES.searchTitle}</button></li>
        <li><button type="button" className="menu-list__item" onClick={() => open('config')}>{MESSAGES.configTitle}</button></li>
      </ul>
    </nav>
  );
}
