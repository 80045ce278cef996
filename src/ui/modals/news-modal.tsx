import { useEffect, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { Link } from 'react-router';
import { TOKENS } from '../../application';
import type { InformationItem } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { STOREFRONT_MODALS as M } from '../storefront.messages';
import { InformationArticle, InformationRowBody } from '../pages/information-page';
import type { ModalComponentProps } from './registry';

/** How many of the newest items the news modal lists; the whole list is the /information page. */
const NEWS_MODAL_ITEMS = 20;

/**
 * News (spec §2.5 news): the newest information; an item opens the news detail over it, or in place
 * when the news is itself the sub-modal.
 */
export default function NewsModal({ open }: ModalComponentProps<Record<never, never>>) {
  const catalog = useInjection(TOKENS.PrizeCatalogPort);
  const { shopId } = useInjection(TOKENS.AppConfig);
  const [items, setItems] = useState<readonly InformationItem[] | null>(null);
  const [failed, setFailed] = useState(false);
  // Opened as a sub-modal (from the menu) there is no room for a third [R2.5-1]: the detail shows in place.
  const [inPlace, setInPlace] = useState<InformationItem | null>(null);
  useEffect(() => {
    let live = true;
    firstValueFrom(catalog.information({ shopId, page: 1, num: NEWS_MODAL_ITEMS })).then(
      (page) => {
        if (live) setItems(page.list);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [catalog, shopId]);
  if (inPlace) {
    return (
      <div className="modal__body modal__body--scroll">
        <InformationArticle item={inPlace} headingLevel={2} />
        <button type="button" className="button button--secondary" onClick={() => setInPlace(null)}>
          {M.newsBack}
        </button>
      </div>
    );
  }
  return (
    <div className="modal__body modal__body--scroll">
      <h2 className="dialog__title">{M.newsTitle}</h2>
      {failed ? <p role="alert">{MESSAGES.loadFailed}</p> : null}
      {items === null && !failed ? <p role="status">{MESSAGES.loading}</p> : null}
      {items ? (
        <ul className="information__list">
          {items.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className="information__row information__row--button"
                onClick={() => {
                  if (!open('newsDetail', { item })) setInPlace(item);
                }}
              >
                <InformationRowBody item={item} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <Link className="button" to="/information" replace>
        {M.newsAll}
      </Link>
    </div>
  );
}
