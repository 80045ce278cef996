import { DocSections, DocTable, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

/**
 * TC利用規約 (spec §2.5 TC rules): free TC (tc_free) and paid TC (tc_toll), free spent first (as
 * the server's ledger spends them), no expiry (the ledger expires nothing), no refunds except by law; then the
 * display the Payment Services Act asks of a prepaid currency.
 */
export default function TcRulesModal() {
  return (
    <DocumentModal name="tcRules">
      <DocSections sections={DOCUMENT_MESSAGES.tcRules} />
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{DOCUMENT_MESSAGES.tcDisclosureHeading}</h3>
        <DocTable rows={DOCUMENT_MESSAGES.tcDisclosure} />
      </section>
      <p className="document-modal__enacted">{DOCUMENT_MESSAGES.enacted}</p>
    </DocumentModal>
  );
}
