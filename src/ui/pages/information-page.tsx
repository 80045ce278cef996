import { useEffect, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { TOKENS, type InformationSnapshot, type InformationState } from '../../application';
import { jstDateLabel, type InformationItem } from '../../domain';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import { STOREFRONT as S } from '../storefront.messages';
import { NotFoundPage } from './not-found-page';
import { usePreloaded } from '../ssr/preload';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';

/** /information: the information list, 100 a page, newest first [R2.1-1, R9-2]. */
export function InformationListPage() {
  const preloaded = usePreloaded<InformationSnapshot>();
  const info = useScopedUseCase(TOKENS.ReadInformation, (i) => preloaded && i.adopt(preloaded));
  const state = useObservableState(info.state$, info.snapshot);
  const location = useLocation();
  const page = Number(new URLSearchParams(location.search).get('page') ?? 1) || 1;
  useEffect(() => info.openList(page), [info, page]);
  return (
    <InformationFrame state={state} retry={() => info.openList(page)}>
      {state.kind === 'list' ? (
        <section className="information" aria-labelledby="information-title">
          <Crumbs current={S.informationList} />
          <h1 id="information-title" className="prize-section__title">
            {S.informationList}
          </h1>
          {state.page.list.length === 0 ? (
            <p className="prize-section__empty">{S.informationEmpty}</p>
          ) : (
            <ul className="information__list">
              {state.page.list.map((item) => (
                <li key={item.id}>
                  <Link className="information__row" to={`/information/${item.tag}`}>
                    <InformationRowBody item={item} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {state.page.page_count > 1 ? (
            <nav aria-label={MESSAGES.pager} className="pager">
              {state.page.page > 1 ? (
                <Link className="chip" to={`/information?page=${state.page.page - 1}`}>
                  {MESSAGES.previousPage}
                </Link>
              ) : null}
              <span>{MESSAGES.pageOf(state.page.page, state.page.page_count)}</span>
              {state.page.page < state.page.page_count ? (
                <Link className="chip" to={`/information?page=${state.page.page + 1}`}>
                  {MESSAGES.nextPage}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      ) : null}
    </InformationFrame>
  );
}

/** /information/{tag}: one item; a tag that fails validation or names nothing is the 404 page [R2.1-5]. */
export function InformationDetailPage() {
  const preloaded = usePreloaded<InformationSnapshot>();
  const info = useScopedUseCase(TOKENS.ReadInformation, (i) => preloaded && i.adopt(preloaded));
  const state = useObservableState(info.state$, info.snapshot);
  const { tag = '' } = useParams();
  useEffect(() => info.openDetail(tag), [info, tag]);
  return (
    <InformationFrame state={state} retry={() => info.openDetail(tag)}>
      {state.kind === 'detail' ? <InformationArticle item={state.item} /> : null}
    </InformationFrame>
  );
}

/** An information row's content: the category, the date and the title (lists, the top page, the news modal). */
export function InformationRowBody({ item }: { item: InformationItem }) {
  return (
    <>
      <span className="information__meta">
        <span className="chip chip--small">{item.category}</span>
        <time dateTime={item.published_at}>{jstDateLabel(item.published_at)}</time>
      </span>
      <span className="information__title">{item.title}</span>
    </>
  );
}

/** One information item as a page section (the news detail modal shows the same article). */
export function InformationArticle({ item, headingLevel = 1 }: { item: InformationItem; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <article className="information__article" aria-labelledby={`information-${item.id}`}>
      {headingLevel === 1 ? <Crumbs current={item.title} parent /> : null}
      <p className="information__meta">
        <span className="chip chip--small">{item.category}</span>
        <time dateTime={item.published_at}>{S.publishedOn(jstDateLabel(item.published_at))}</time>
      </p>
      <Heading id={`information-${item.id}`} className="information__heading">
        {item.title}
      </Heading>
      {item.img_url ? (
        <Picture
          className="information__image"
          src={item.img_url}
          alt=""
          width={640}
          height={240}
          layout={PICTURE_LAYOUTS.kujiBox}
        />
      ) : null}
      {item.body.split('\n').map((line, i) => (
        <p key={i} className="information__body">
          {line}
        </p>
      ))}
      {headingLevel === 1 ? (
        <Link className="button button--secondary" to="/information">
          {S.informationBack}
        </Link>
      ) : null}
    </article>
  );
}

function Crumbs({ current, parent = false }: { current: string; parent?: boolean }) {
  return (
    <nav aria-label={MESSAGES.breadcrumb} className="breadcrumb">
      <ol>
        <li>
          <Link to="/">{MESSAGES.home}</Link>
        </li>
        {parent ? (
          <li>
            <Link to="/information">{S.informationList}</Link>
          </li>
        ) : null}
        <li>
          <span aria-current="page">{current}</span>
        </li>
      </ol>
    </nav>
  );
}

function InformationFrame({
  state,
  retry,
  children,
}: {
  state: InformationState;
  retry: () => void;
  children: ReactNode;
}) {
  if (state.kind === 'notFound') return <NotFoundPage />;
  if (state.kind === 'idle' || state.kind === 'loading')
    return (
      <p className="page-status" role="status">
        {MESSAGES.loading}
      </p>
    );
  if (state.kind === 'error') {
    return (
      <div className="page-status page-status--error" role="alert">
        <p>{S.informationLoadFailed}</p>
        <button type="button" className="button" onClick={retry}>
          {MESSAGES.retry}
        </button>
      </div>
    );
  }
  return <div className="information-page">{children}</div>;
}

export default InformationListPage;
