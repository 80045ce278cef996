import { useEffect } from 'react';
import { TOKENS } from '../../application';
import { buildPlayPath } from '../../domain';
import { useInjection } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { useScopedUseCase } from '../hooks/use-scoped-use-case';
import { PrizeCard } from '../components/prize-card';
import { MESSAGES } from '../messages';

/** The top page: tabs, then the catalogue's rows of prize stations (§2.1 "/{tag...}"). */
export function TopPage() {
  const browse = useScopedUseCase(TOKENS.BrowseTopPage);
  const state = useObservableState(browse.state$, browse.snapshot);
  const { target } = useInjection(TOKENS.AppConfig);

  useEffect(() => {
    browse.ensureLoaded();
  }, [browse]);

  if (state.kind === 'idle' || state.kind === 'loading') {
    return <p className="page-status" role="status">{MESSAGES.loading}</p>;
  }
  if (state.kind === 'error') {
    return (
      <div className="page-status page-status--error" role="alert">
        <p>{MESSAGES.loadFailed}</p>
        <button type="button" className="button" onClick={() => browse.load()}>{MESSAGES.retry}</button>
      </div>
    );
  }
  const { catalogue } = state;
  return (
    <div className="top-page">
      <nav aria-label={MESSAGES.tabs} className="tab-bar">
        <ul tabIndex={0}>
          {catalogue.tab_list.map((tab) => (
            <li key={tab.tab_id} className="tab-bar__tab" data-tab-kind={tab.tab_kind}>{tab.tab_name}</li>
          ))}
        </ul>
      </nav>
      {catalogue.campaign_banner.length > 0 ? (
        <section className="banner-row" aria-label={MESSAGES.campaigns} tabIndex={0}>
          {catalogue.campaign_banner.map((banner) => (
            <img key={banner.id} className="banner-row__banner" src={banner.img_url} alt={banner.title} width={640} height={200} />
          ))}
        </section>
      ) : null}
      {catalogue.sale_list.map((section) => (
        <section key={section.tab_id} className="prize-section" aria-labelledby={`section-${section.tab_id}`}>
          <h2 id={`section-${section.tab_id}`} className="prize-section__title">{section.title}</h2>
          {section.list.length === 0 ? (
            <p className="prize-section__empty">{MESSAGES.emptySection}</p>
          ) : (
            <div className="prize-grid">
              {section.list.map((item) => (
                <PrizeCard
                  key={item.station_id}
                  item={item}
                  href={buildPlayPath(target, { stationId: item.station_id, character: item.character, subCharacter: item.sub_character, tab: section.title })}
                />
              ))}
            </div>
          )}
        </section>
      ))}
    </div>
  );
}

export default TopPage;
