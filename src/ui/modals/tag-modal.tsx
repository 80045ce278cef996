import { useEffect } from 'react';
import { Link } from 'react-router';
import { TOKENS } from '../../application';
import { buildCataloguePath, type BuildTarget, type Character, type TabListItem } from '../../domain';
import { useInjection, useScopedUseCase } from '../di/container-context';
import { useObservableState } from '../hooks/use-observable-state';
import { DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES as M } from './documents.messages';

/**
 * タグ一覧 (spec §2.5 tag): the catalogue's tabs and characters (with their sub-characters) as
 * links to their catalogue paths [R2.3-1, R2.3-2], read through the BrowseCatalogue use-case from
 * the server, never hard-coded. A link replaces the modal's history entry, so the host closes the
 * modal on the new page (as the search does).
 */
export default function TagModal() {
  const browse = useScopedUseCase(TOKENS.BrowseCatalogue);
  const state = useObservableState(browse.state$, browse.snapshot);
  const { target } = useInjection(TOKENS.AppConfig);
  useEffect(() => {
    browse.open('/');
  }, [browse]);

  let body;
  if (state.kind === 'top') {
    body = <TagLists target={target} tabs={state.catalogue.tab_list} characters={state.characters} />;
  } else if (state.kind === 'error' || state.kind === 'notFound') {
    body = (
      <div role="alert" className="document-modal__section">
        <p className="document-modal__text">{M.tagFailed}</p>
        <button type="button" className="button" onClick={() => browse.open('/')}>
          {M.tagRetry}
        </button>
      </div>
    );
  } else {
    body = (
      <p role="status" className="document-modal__text">
        {M.tagLoading}
      </p>
    );
  }
  return <DocumentModal name="tag">{body}</DocumentModal>;
}

function TagLists({
  target,
  tabs,
  characters,
}: {
  target: BuildTarget;
  tabs: readonly TabListItem[];
  characters: readonly Character[];
}) {
  // The character paths exist on web only; elsewhere the one list page is the root [R2.3-2].
  const shownCharacters = target === 'web' ? characters : [];
  const tabHref = (tab: TabListItem) =>
    tab.tab_kind === 'home' ? '/' : buildCataloguePath(target, { tab: tab.tab_slug });
  return (
    <>
      <p className="document-modal__text">{M.tagLead}</p>
      {tabs.length === 0 && shownCharacters.length === 0 ? <p className="document-modal__text">{M.tagEmpty}</p> : null}
      {tabs.length > 0 ? (
        <section className="document-modal__section">
          <h3 className="document-modal__heading">{M.tagTabs}</h3>
          <ul className="tag-list">
            {tabs.map((tab) => (
              <li key={tab.tab_id}>
                <Link className="chip" to={tabHref(tab)} replace>
                  {tab.tab_name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {shownCharacters.length > 0 ? (
        <section className="document-modal__section">
          <h3 className="document-modal__heading">{M.tagCharacters}</h3>
          <ul className="tag-characters">
            {shownCharacters.map((c) => (
              <li key={c.character_id} className="tag-characters__item">
                <Link
                  className="chip chip--strong"
                  to={buildCataloguePath(target, { character: c.character_slug })}
                  replace
                >
                  {c.character_name}
                </Link>
                {c.sub_character.length > 0 ? (
                  <ul className="tag-list" aria-label={c.character_name}>
                    {c.sub_character.map((s) => (
                      <li key={s.sub_character_id}>
                        <Link
                          className="chip"
                          to={buildCataloguePath(target, {
                            character: c.character_slug,
                            subCharacter: s.sub_character_slug,
                          })}
                          replace
                        >
                          {s.sub_character_name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
