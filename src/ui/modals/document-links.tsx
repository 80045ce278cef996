import { DialogChip } from './dialog-chip';
import { useModals } from './modal-host';
import { FOOTER_DOCUMENTS } from './document-names';
import { DOCUMENT_NAMES_MESSAGES as DOCUMENT_MESSAGES } from './document-names.messages';

/**
 * The footer's links to the rules, the legal display, the privacy policy and the FAQ, each opening
 * its modal [R2.5-2]. Only where a modal host is mounted (not on the fatal-error page).
 */
export function FooterDocumentLinks() {
  const { open } = useModals();
  return (
    <nav className="site-footer__links" aria-label={DOCUMENT_MESSAGES.footerNav}>
      <ul>
        {FOOTER_DOCUMENTS.map((name) => (
          <li key={name}>
            <button
              type="button"
              className="site-footer__link"
              aria-haspopup="dialog"
              data-testid={`footer-${name}`}
              onClick={() => open(name)}
            >
              {DOCUMENT_MESSAGES.titles[name]}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The play screen's '遊び方' button, opening the play method [R2.5-2]. */
export function PlayMethodButton() {
  const { open } = useModals();
  return (
    <DialogChip testId="open-play-method" onOpen={() => open('playMethod')}>
      {DOCUMENT_MESSAGES.titles.playMethod}
    </DialogChip>
  );
}
