import { useEffect, useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { TOKENS, type PrizeSearchResult } from '../../application';
import {
  buildPlayPath,
  DESIGNATED_TYPES,
  DOMAIN_MESSAGES,
  STATION_TYPES,
  type Character,
  type PrizeItem,
  type SearchParams,
  type TabListItem,
} from '../../domain';
import { PrizeCard } from '../components/prize-card';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import { STOREFRONT_MODALS as M } from '../storefront.messages';
import type { ModalComponentProps } from './registry';

type Flags = Pick<SearchParams, 'new' | 'natia' | 'vip' | 'exclusive' | 'refine_search' | 'is_all'>;
const FLAG_LABELS: readonly (readonly [keyof Flags, string])[] = [
  ['new', M.newOnly],
  ['natia', M.natiaOnly],
  ['vip', M.vipOnly],
  ['exclusive', M.exclusiveOnly],
  ['refine_search', M.playableOnly],
  ['is_all', M.showAll],
];

/** '12, 15,30' → [12, 15, 30]; anything that is not a positive id is dropped, at most 100. */
function stationIdsOf(text: string): number[] {
  return [
    ...new Set(
      text
        .split(/[,、\s]+/)
        .map((t) => Number(t.trim()))
        .filter((n) => Number.isSafeInteger(n) && n > 0),
    ),
  ].slice(0, 100);
}

/**
 * Title search (spec §2.5): every search param of R3-17 — keyword, character, station ids, category,
 * station type, new, designated type, natia, VIP, exclusive, gift type, playable now, and all at
 * once — searched in place with paging; no match opens the prize-not-found alert over it [R8-8].
 */
export default function TitleSearchModal({ props, open }: ModalComponentProps<{ readonly keyword?: string }>) {
  const catalog = useInjection(TOKENS.PrizeCatalogPort);
  const config = useInjection(TOKENS.AppConfig);
  const tracker = useInjection(TOKENS.TrackEvent);
  const [characters, setCharacters] = useState<readonly Character[]>([]);
  const [tabs, setTabs] = useState<readonly TabListItem[]>([]);
  const [keyword, setKeyword] = useState(props.keyword ?? '');
  const [characterId, setCharacterId] = useState(0);
  const [categoryId, setCategoryId] = useState(0);
  const [stationType, setStationType] = useState('');
  const [designated, setDesignated] = useState('');
  const [gift, setGift] = useState(false);
  const [ids, setIds] = useState('');
  const [flags, setFlags] = useState<Flags>({ new: 0, natia: 0, vip: 0, exclusive: 0, refine_search: 0, is_all: 0 });
  const [result, setResult] = useState<PrizeSearchResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    firstValueFrom(catalog.characters()).then(
      (list) => {
        if (live) setCharacters(list);
      },
      () => undefined,
    );
    firstValueFrom(catalog.topPage({ shopId: config.shopId })).then(
      (top) => {
        if (live) setTabs(top.tab_list.filter((t) => t.tab_kind !== 'home' && t.tab_kind !== 'all'));
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [catalog, config.shopId]);

  const search = (page: number) => {
    if (busy) return;
    const word = keyword.trim();
    const params: Partial<SearchParams> = {
      ...(word ? { keyword: word } : {}),
      ...(characterId ? { character_id: characterId } : {}),
      ...(categoryId ? { category_id: categoryId } : {}),
      ...(stationType ? { station_type: stationType } : {}),
      ...(designated ? { designated_type: designated } : {}),
      ...(gift ? { gift_type: '1' } : {}),
      ...(stationIdsOf(ids).length > 0 ? { station_ids: stationIdsOf(ids) } : {}),
      ...Object.fromEntries(Object.entries(flags).filter(([, v]) => v === 1)),
    };
    if (word && page === 1) tracker.track('search_word', { search_word: word });
    setBusy(true);
    setRefusal(null);
    firstValueFrom(catalog.searchPrizes({ shopId: config.shopId, params, page })).then(
      (found) => {
        setBusy(false);
        if (found.prize.total_count === 0) {
          // Opened as a sub-modal there is no room for the alert [R2.5-1]: it shows in the form.
          if (!open('alert', { message: DOMAIN_MESSAGES.prizeNotFound })) setRefusal(DOMAIN_MESSAGES.prizeNotFound);
          return;
        }
        setResult(found);
      },
      () => {
        setBusy(false);
        if (!open('alert', { message: DOMAIN_MESSAGES.reloadError })) setRefusal(DOMAIN_MESSAGES.reloadError);
      },
    );
  };

  const playHref = (item: PrizeItem) =>
    buildPlayPath(config.target, {
      stationId: item.station_id,
      character: item.character,
      subCharacter: item.sub_character,
      tab: M.titleSearch,
    });
  if (result)
    return (
      <TitleSearchResults
        result={result}
        playHref={playHref}
        onPage={search}
        onDetails={(item) => open('prizeDetail', { item, href: playHref(item) })}
        onAgain={() => setResult(null)}
      />
    );

  return (
    <form
      className="modal__body modal__body--scroll title-search"
      role="search"
      aria-label={M.titleSearch}
      onSubmit={(e) => {
        e.preventDefault();
        search(1);
      }}
    >
      <h2 className="dialog__title">{M.titleSearch}</h2>
      <label className="debug-login__field">
        <span>{MESSAGES.searchKeyword}</span>
        <input
          type="search"
          name="keyword"
          value={keyword}
          maxLength={100}
          onChange={(e) => setKeyword(e.target.value)}
        />
      </label>
      <label className="debug-login__field">
        <span>{M.character}</span>
        <select name="character_id" value={characterId} onChange={(e) => setCharacterId(Number(e.target.value))}>
          <option value={0}>{M.anyCharacter}</option>
          {characters.map((c) => (
            <option key={c.character_id} value={c.character_id}>
              {c.character_name}
            </option>
          ))}
        </select>
      </label>
      <label className="debug-login__field">
        <span>{M.category}</span>
        <select name="category_id" value={categoryId} onChange={(e) => setCategoryId(Number(e.target.value))}>
          <option value={0}>{M.anyCategory}</option>
          {tabs.map((t) => (
            <option key={t.tab_id} value={t.tab_id}>
              {t.tab_name}
            </option>
          ))}
        </select>
      </label>
      <label className="debug-login__field">
        <span>{M.stationTypeLabel}</span>
        <select name="station_type" value={stationType} onChange={(e) => setStationType(e.target.value)}>
          <option value="">{M.any}</option>
          {STATION_TYPES.map((t) => (
            <option key={t} value={t}>
              {M.stationType[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="debug-login__field">
        <span>{M.designatedLabel}</span>
        <select name="designated_type" value={designated} onChange={(e) => setDesignated(e.target.value)}>
          <option value="">{M.any}</option>
          {DESIGNATED_TYPES.map((t) => (
            <option key={t} value={t}>
              {M.designated[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="debug-login__field">
        <span>{M.stationIds}</span>
        <input
          name="station_ids"
          inputMode="numeric"
          placeholder={M.stationIdsHint}
          value={ids}
          maxLength={600}
          onChange={(e) => setIds(e.target.value)}
        />
      </label>
      <fieldset className="title-search__flags">
        <label className="switch">
          <input type="checkbox" name="gift_type" checked={gift} onChange={(e) => setGift(e.target.checked)} />
          <span>{M.giftOnly}</span>
        </label>
        {FLAG_LABELS.map(([key, label]) => (
          <label key={key} className="switch">
            <input
              type="checkbox"
              name={key}
              checked={flags[key] === 1}
              onChange={(e) => setFlags((f) => ({ ...f, [key]: e.target.checked ? 1 : 0 }))}
            />
            <span>{label}</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={busy}>
        {MESSAGES.searchSubmit}
      </button>
      {refusal ? (
        <p role="alert" className="panel__note" data-testid="inline-alert">
          {refusal}
        </p>
      ) : null}
    </form>
  );
}

/** One page of the search's stations, the pager, and the way back to the form. */
function TitleSearchResults({
  result: { prize },
  playHref,
  onPage,
  onDetails,
  onAgain,
}: {
  result: PrizeSearchResult;
  playHref: (item: PrizeItem) => string;
  onPage: (page: number) => void;
  onDetails: (item: PrizeItem) => void;
  onAgain: () => void;
}) {
  return (
    <div className="modal__body modal__body--scroll title-search">
      <h2 className="dialog__title">{M.results(prize.total_count)}</h2>
      <div className="prize-grid">
        {prize.list.map((item) => (
          <PrizeCard key={item.station_id} item={item} href={playHref(item)} onDetails={() => onDetails(item)} />
        ))}
      </div>
      {prize.page_count > 1 ? (
        <nav aria-label={MESSAGES.pager} className="pager">
          {prize.page > 1 ? (
            <button type="button" className="chip" onClick={() => onPage(prize.page - 1)}>
              {MESSAGES.previousPage}
            </button>
          ) : null}
          <span>{MESSAGES.pageOf(prize.page, prize.page_count)}</span>
          {prize.page < prize.page_count ? (
            <button type="button" className="chip" onClick={() => onPage(prize.page + 1)}>
              {MESSAGES.nextPage}
            </button>
          ) : null}
        </nav>
      ) : null}
      <button type="button" className="button button--secondary" onClick={onAgain}>
        {M.searchAgain}
      </button>
    </div>
  );
}
