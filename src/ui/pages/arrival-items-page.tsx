import { useEffect } from 'react';
import { Link } from 'react-router';
import { TOKENS, type TopPageExtrasState } from '../../application';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../di/container-context';
import { MESSAGES } from '../messages';
import { STOREFRONT as S } from '../storefront.messages';
import { ArrivalCard } from './top-rows';
import { usePreloaded } from '../ssr/preload';

/** The arrival-items page (§2.1's lazily loaded pages): the prize store's newest 50 arrivals [R7-7, R9-2]. */
export function ArrivalItemsPage() {
  const preloaded = usePreloaded<TopPageExtrasState>();
  const extras = useScopedUseCase(TOKENS.TopPageExtras, (x) => preloaded && x.adopt(preloaded));
  const { arrivals } = useObservableState(extras.state$, extras.snapshot);
  useEffect(() => extras.load(['arrivals']), [extras]);
  return (
    <section className="prize-section arrival-items" aria-labelledby="arrival-items-title">
      <nav aria-label={MESSAGES.breadcrumb} className="breadcrumb">
        <ol>
          <li>
            <Link to="/">{MESSAGES.home}</Link>
          </li>
          <li>
            <span aria-current="page">{S.arrivalItemsTitle}</span>
          </li>
        </ol>
      </nav>
      <h1 id="arrival-items-title" className="prize-section__title">
        {S.arrivalItemsTitle}
      </h1>
      <p>{S.arrivalItemsLead}</p>
      {arrivals.kind === 'loading' ? (
        <p className="page-status" role="status">
          {MESSAGES.loading}
        </p>
      ) : null}
      {arrivals.kind === 'error' ? (
        <p className="page-status page-status--error" role="alert">
          {S.rowLoadFailed}
        </p>
      ) : null}
      {arrivals.kind === 'loaded' && arrivals.items.length === 0 ? (
        <p className="prize-section__empty">{S.arrivalItemsEmpty}</p>
      ) : null}
      {arrivals.kind === 'loaded' && arrivals.items.length > 0 ? (
        <ul className="arrival-grid">
          {arrivals.items.map((a) => (
            <li key={`${a.name}-${a.release_date}`}>
              <ArrivalCard arrival={a} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export default ArrivalItemsPage;
