import { createContext, useContext, useEffect } from 'react';
import { Tutorial } from '../account/account-gates';
import { Link, Navigate, useLocation } from 'react-router';
import {
  TOKENS,
  type BrowseCatalogue,
  type CatalogueListing,
  type CatalogueLive,
  type CatalogueSnapshot,
  type CatalogueState,
} from '../../application';
import {
  buildCataloguePath,
  buildPlayPath,
  marqueeDurationMs,
  type Character,
  type PrizeItem,
  type TabListItem,
  type TopPageCatalogue,
  type WinnerAnnouncement,
} from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState, useObservableTransition } from '../hooks/use-observable-state';
import { useNearViewport } from '../hooks/use-near-viewport';
import { PrizeCard } from '../components/prize-card';
import { MESSAGES } from '../messages';
import { useModals } from '../modals/modal-host';
import { STOREFRONT as S } from '../storefront.messages';
import { ArrivalsRow, Carousel, NewsRow, SideBanner } from './top-rows';
import { NotFoundPage } from './not-found-page';
import { usePreloaded } from '../ssr/preload';
import { HydrationPart } from '../ssr/hydration-part';
import type { CataloguePreload } from '../ssr/route-preloads';
import { imageLoading } from '../components/image-loading';
import { Picture, PICTURE_LAYOUTS } from '../components/picture';
import { DailyFreePlayBanner } from '../components/daily-free-play';

/**
 * The catalogue (§2.1 "/{tag...}", §2.3): the top page at the root; a character, sub-character,
 * tab or keyword path lists its stations; a bad segment is the 404 page [R2.3-3, R2.1-5]; on web a
 * path with a hash goes to the clean path [R2.3-4].
 */
const NO_LIVE: CatalogueLive = { stations: {}, winners: [] };
/** The cards of a listing in its first screen (two rows on a phone, a row and more on a desktop). */
const LISTING_FIRST_SCREEN = 4;
/** What the socket said about the stations on screen, for the cards. */
const LiveContext = createContext<CatalogueLive>(NO_LIVE);

/** A card's station with what the socket said since the page loaded (status, playing) [R7-11]. */
function LiveCard({ item, href, eager = false }: { item: PrizeItem; href: string; eager?: boolean }) {
  const live = useContext(LiveContext).stations[item.station_id];
  const shown = live
    ? {
        ...item,
        station_status: live.station_status as PrizeItem['station_status'],
        ...(live.playing === undefined ? {} : { playing: live.playing }),
      }
    : item;
  const { open } = useModals();
  return (
    <PrizeCard
      item={shown}
      href={href}
      eager={eager}
      lobby={live?.visit_count === undefined ? null : { viewers: live.visit_count, line: live.reserve_count ?? 0 }}
      onDetails={() => open('prizeDetail', { item: shown, href })}
    />
  );
}

export function TopPage() {
  const preloaded = usePreloaded<CatalogueSnapshot>();
  const browse = useScopedUseCase(TOKENS.BrowseCatalogue, (b) => preloaded && b.adopt(preloaded));
  const state = useObservableState(browse.state$, browse.snapshot);
  const live = useObservableTransition(browse.live$, NO_LIVE);
  return (
    <LiveContext.Provider value={live}>
      <Tutorial name="tutorial_top" />
      <CataloguePage browse={browse} state={state} winners={live.winners} />
    </LiveContext.Provider>
  );
}

function CataloguePage({
  browse,
  state,
  winners,
}: {
  browse: BrowseCatalogue;
  state: CatalogueState;
  winners: readonly WinnerAnnouncement[];
}) {
  const location = useLocation();
  const page = Number(new URLSearchParams(location.search).get('page') ?? 1) || 1;
  const url = `${location.pathname}${location.search}${location.hash}`;

  useEffect(() => {
    browse.open(url, page);
  }, [browse, url, page]);

  if (state.kind === 'redirect') return <Navigate to={state.to} replace />;
  if (state.kind === 'notFound') return <NotFoundPage />;
  if (state.kind === 'idle' || state.kind === 'loading') {
    return (
      <p className="page-status" role="status">
        {MESSAGES.loading}
      </p>
    );
  }
  if (state.kind === 'error') {
    return (
      <div className="page-status page-status--error" role="alert">
        <p>{MESSAGES.loadFailed}</p>
        <button type="button" className="button" onClick={() => browse.open(url, page)}>
          {MESSAGES.retry}
        </button>
      </div>
    );
  }
  if (state.kind === 'listing') {
    return (
      <div className="top-page">
        <TabBar tabs={state.tabs} current={state.listing.selection.tab} />
        <CharacterBar characters={state.characters} current={state.listing.selection.character} />
        <Listing listing={state.listing} />
      </div>
    );
  }
  return <TopRows catalogue={state.catalogue} characters={state.characters} winners={winners} />;
}

/** The winner marquee: the newest announcement scrolls at a speed set by its length [R9-5]. */
function WinnerMarquee({ winners }: { winners: readonly WinnerAnnouncement[] }) {
  const latest = winners[0];
  if (!latest) return null;
  return (
    <div className="marquee" role="status" aria-label={MESSAGES.winners} data-testid="winner-marquee">
      <span
        key={latest.message}
        className="marquee__text"
        style={{ animationDuration: `${marqueeDurationMs(latest.message)}ms` }}
      >
        {latest.message}
      </span>
    </div>
  );
}

function useCatalogueHref() {
  const { target } = useInjection(TOKENS.AppConfig);
  return {
    target,
    tab: (tab: TabListItem) => (tab.tab_kind === 'home' ? '/' : buildCataloguePath(target, { tab: tab.tab_slug })),
    character: (c: string, sub?: string) =>
      buildCataloguePath(target, { character: c, ...(sub ? { subCharacter: sub } : {}) }),
    play: (item: PrizeItem, tab: string) =>
      buildPlayPath(target, {
        stationId: item.station_id,
        character: item.character,
        subCharacter: item.sub_character,
        tab,
      }),
  };
}

function TabBar({ tabs, current }: { tabs: readonly TabListItem[]; current?: string | undefined }) {
  const href = useCatalogueHref();
  const tracker = useInjection(TOKENS.TrackEvent);
  return (
    <nav aria-label={MESSAGES.tabs} className="tab-bar">
      <ul tabIndex={0}>
        {tabs.map((tab) => {
          const active = current === undefined ? tab.tab_kind === 'home' : tab.tab_slug === current;
          return (
            <li key={tab.tab_id} className="tab-bar__item">
              <Link
                className="tab-bar__tab"
                data-tab-kind={tab.tab_kind}
                aria-current={active ? 'page' : undefined}
                to={href.tab(tab)}
                onClick={() =>
                  tracker.track('filtering_click', { title_all: tab.tab_name, img: '', filter_type_id: tab.tab_id })
                }
              >
                {tab.tab_name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Character and sub-character browsing (web paths /{character}/{sub}). */
function CharacterBar({ characters, current }: { characters: readonly Character[]; current?: string | undefined }) {
  const href = useCatalogueHref();
  if (href.target !== 'web' || characters.length === 0) return null;
  return (
    <nav aria-label={MESSAGES.characters} className="character-bar">
      <ul tabIndex={0}>
        {characters.map((c) => (
          <li key={c.character_id}>
            <Link
              className="chip"
              aria-current={current === c.character_slug ? 'page' : undefined}
              to={href.character(c.character_slug)}
            >
              {c.character_name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function TopRows({
  catalogue,
  characters,
  winners,
}: {
  catalogue: TopPageCatalogue;
  characters: readonly Character[];
  winners: readonly WinnerAnnouncement[];
}) {
  const href = useCatalogueHref();
  const preloaded = usePreloaded<CataloguePreload>()?.extras;
  const extras = useScopedUseCase(TOKENS.TopPageExtras, (x) => preloaded && x.adopt(preloaded));
  const rows = useObservableState(extras.state$, extras.snapshot);
  const session = useInjection(TOKENS.SessionPort);
  const identity = useObservableState(session.identity$, null);
  useEffect(() => extras.load(), [extras]);
  const practiceTab = catalogue.tab_list.find((t) => t.tab_kind === 'practice');
  const ticketTab = catalogue.tab_list.find((t) => t.tab_kind === 'point_ticket');
  return (
    <div className="top-page">
      <WinnerMarquee winners={winners} />
      <HydrationPart>
        <div className="top-page__hero">
          <Carousel row={rows.carousels} />
          <SideBanner slides={rows.sideBanner} />
        </div>
      </HydrationPart>
      <TabBar tabs={catalogue.tab_list} />
      <CharacterBar characters={characters} />
      <DailyFreePlayBanner href={ticketTab ? href.tab(ticketTab) : null} />
      {identity === null && catalogue.new_user.img ? (
        <section className="new-user" aria-label={S.newUserTitle}>
          <Link to={practiceTab ? href.tab(practiceTab) : '/'}>
            <Picture
              className="new-user__image"
              src={catalogue.new_user.img}
              alt={S.newUserAlt}
              width={1280}
              height={400}
              layout={PICTURE_LAYOUTS.banner}
              {...imageLoading(true)}
            />
          </Link>
        </section>
      ) : null}
      {catalogue.campaign_banner.length > 0 ? (
        <section className="banner-row" aria-label={MESSAGES.campaigns} tabIndex={0}>
          {catalogue.campaign_banner.map((banner) => (
            <Picture
              key={banner.id}
              className="banner-row__banner"
              src={banner.img_url}
              alt={banner.title}
              width={640}
              height={200}
              layout={PICTURE_LAYOUTS.bannerRow}
            />
          ))}
        </section>
      ) : null}
      {catalogue.fes.list.length > 0 ? (
        <HydrationPart>
          <section className="prize-section fes" aria-labelledby="fes-title">
            <h2 id="fes-title" className="prize-section__title">
              {S.festival}
            </h2>
            {catalogue.fes.img ? (
              <Picture
                className="fes__banner"
                src={catalogue.fes.img}
                alt={S.festivalAlt}
                width={1280}
                height={400}
                layout={PICTURE_LAYOUTS.banner}
                {...imageLoading(true)}
              />
            ) : null}
            <div className="prize-grid">
              {catalogue.fes.list.map((item) => (
                <LiveCard key={item.station_id} item={item} href={href.play(item, S.festival)} />
              ))}
            </div>
          </section>
        </HydrationPart>
      ) : null}
      {/* The rows below the festival render as they come near the screen (`CardRow`). */}
      {catalogue.new_prize.length > 0 ? (
        <CardRow id="new-prize-title" title={MESSAGES.newPrizes} items={catalogue.new_prize} deferred />
      ) : null}
      {catalogue.sale_list.map((section) => (
        <CardRow
          key={section.tab_id}
          id={`section-${section.tab_id}`}
          title={section.title}
          items={section.list}
          deferred
        />
      ))}
      <HydrationPart>
        <ArrivalsRow row={rows.arrivals} />
      </HydrationPart>
      <HydrationPart>
        <NewsRow row={rows.news} />
      </HydrationPart>
    </div>
  );
}

/**
 * A catalogue row: its stations' cards under its title, hydrated on its own; an empty row says so.
 * A `deferred` row goes out from the server as its title and a placeholder per card (the top page
 * would otherwise be ~100 cards of markup to parse, lay out and hydrate before it is live, issue
 * 27), and renders its cards once it comes near the screen (the data is in the page already).
 */
function CardRow({
  id,
  title,
  items,
  deferred = false,
}: {
  id: string;
  title: string;
  items: readonly PrizeItem[];
  deferred?: boolean;
}) {
  const href = useCatalogueHref();
  const [shown, observe] = useNearViewport(deferred);
  return (
    <HydrationPart>
      <section className="prize-section" aria-labelledby={id} ref={observe} aria-busy={shown ? undefined : true}>
        <h2 id={id} className="prize-section__title">
          {title}
        </h2>
        {items.length === 0 ? (
          <p className="prize-section__empty">{MESSAGES.emptySection}</p>
        ) : (
          <div className="prize-grid">
            {items.map((item) =>
              shown ? (
                <LiveCard key={item.station_id} item={item} href={href.play(item, title)} />
              ) : (
                <div key={item.station_id} className="prize-card prize-card--pending" aria-hidden="true">
                  <div className="prize-card__image" />
                </div>
              ),
            )}
          </div>
        )}
      </section>
    </HydrationPart>
  );
}

function Listing({ listing }: { listing: CatalogueListing }) {
  const href = useCatalogueHref();
  const location = useLocation();
  const pageHref = (n: number) => {
    const query = new URLSearchParams(location.search);
    query.set('page', String(n));
    return `${location.pathname}?${query.toString()}`;
  };
  return (
    <section className="prize-section" aria-labelledby="listing-title">
      <nav aria-label={MESSAGES.breadcrumb} className="breadcrumb">
        <ol>
          {listing.breadcrumb.map((crumb) => (
            <li key={`${crumb.label}-${crumb.href ?? ''}`}>
              {crumb.href ? <Link to={crumb.href}>{crumb.label}</Link> : <span aria-current="page">{crumb.label}</span>}
            </li>
          ))}
        </ol>
      </nav>
      <h1 id="listing-title" className="prize-section__title">
        {listing.title}
      </h1>
      <p className="listing__count">{MESSAGES.resultCount(listing.totalCount)}</p>
      {listing.items.length === 0 ? (
        <p className="prize-section__empty">{MESSAGES.emptySection}</p>
      ) : (
        <div className="prize-grid">
          {listing.items.map((item, index) => (
            <LiveCard
              key={item.station_id}
              item={item}
              href={href.play(item, listing.title)}
              eager={index < LISTING_FIRST_SCREEN}
            />
          ))}
        </div>
      )}
      {listing.pageCount > 1 ? (
        <nav aria-label={MESSAGES.pager} className="pager">
          {listing.page > 1 ? (
            <Link className="chip" to={pageHref(listing.page - 1)}>
              {MESSAGES.previousPage}
            </Link>
          ) : null}
          <span>{MESSAGES.pageOf(listing.page, listing.pageCount)}</span>
          {listing.page < listing.pageCount ? (
            <Link className="chip" to={pageHref(listing.page + 1)}>
              {MESSAGES.nextPage}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

export default TopPage;
