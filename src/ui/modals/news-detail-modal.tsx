import type { InformationItem } from '../../domain';
import { MESSAGES } from '../messages';
import { InformationArticle } from '../pages/information-page';
import type { ModalComponentProps } from './registry';

/** News detail (spec §2.5): one information item, usually over the news modal. */
export default function NewsDetailModal({ props, close }: ModalComponentProps<{ readonly item: InformationItem }>) {
  return (
    <div className="modal__body modal__body--scroll">
      <InformationArticle item={props.item} headingLevel={2} />
      <button type="button" className="button" onClick={close}>
        {MESSAGES.close}
      </button>
    </div>
  );
}
