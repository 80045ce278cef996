import { useState } from 'react';
import { firstValueFrom } from 'rxjs';
import { useNavigate } from 'react-router';
import { TOKENS } from '../../application';
import { buildCataloguePath, DOMAIN_MESSAGES } from '../../domain';
import { useInjection } from '../di/container-context';
import { MESSAGES } from '../messages';
import type { ModalComponentProps } from './registry';

/**
 * The search (spec §2.5 search): a keyword over the catalogue. With results it goes to the
 * catalogue's keyword path; with none it opens the prize-not-found alert over itself [R8-8].
 */
export default function SearchModal({ props, open }: ModalComponentProps<{ readonly keyword?: string }>) {
  const catalog = useInjection(TOKENS.PrizeCatalogPort);
  const config = useInjection(TOKENS.AppConfig);
  const tracker = useInjection(TOKENS.TrackEvent);
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState(props.keyword ?? '');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <form
      className="modal__body"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const word = keyword.trim();
        if (!word || busy) return;
        setBusy(true);
        setRefusal(null);
        tracker.track('search_word', { search_word: word });
        firstValueFrom(catalog.searchPrizes({ shopId: config.shopId, params: { keyword: word } })).then(
          (result) => {
            setBusy(false);
            if (result.prize.total_count === 0) {
              // Opened as a sub-modal there is no room for the alert [R2.5-1]: it shows in the form.
              if (!open('alert', { message: DOMAIN_MESSAGES.prizeNotFound })) setRefusal(DOMAIN_MESSAGES.prizeNotFound);
              return;
            }
            // The results replace the modal's history entry; the host closes the modal on the new page.
            navigate(buildCataloguePath(config.target, { keyword: word }), { replace: true });
          },
          () => {
            setBusy(false);
            if (!open('alert', { message: DOMAIN_MESSAGES.reloadError })) setRefusal(DOMAIN_MESSAGES.reloadError);
          },
        );
      }}
    >
      <h2 className="dialog__title">{MESSAGES.searchTitle}</h2>
      <label className="debug-login__field">
        <span>{MESSAGES.searchKeyword}</span>
        <input
          type="search"
          name="keyword"
          autoFocus
          value={keyword}
          maxLength={100}
          onChange={(e) => setKeyword(e.target.value)}
        />
      </label>
      <button type="submit" className="button" disabled={busy || keyword.trim() === ''}>
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
