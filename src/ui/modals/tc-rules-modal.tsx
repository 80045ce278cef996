import { DocSections, DocTable, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES, TC_VALIDITY_DAYS } from './documents.messages';

/**
 * TC利用規約 (spec §2.5 TC rules): free TC (tc_free) and paid TC (tc_toll), free spent first (as
 * the server's ledger spends them), the validity period, no refunds except by law; then the
 * display the Payment Services Act asks of a prepaid currency.
 */
export default function TcRulesModal() {
  const n = { tcValidityDays: TC_VALIDITY_DAYS };
  return (
    <DocumentModal name="tcRules">
      <DocSections sections={DOCUMENT_MESSAGES.tcRules(n)} />
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{DOCUMENT_MESSAGES.tcDisclosureHeading}</h3>
        <DocTable rows={DOCUMENT_MESSAGES.tcDisclosure(n)} />
      </section>
      <p className="document-modal__enacted">{DOCUMENT_MESSAGES.enacted}</p>
    </DocumentModal>
  );
}
