import { DELIVERY_FEE_TC } from '../../domain';
import { DocTable, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

/** 特定商取引法に基づく表示 (spec §2.5 legal display): the seller, prices, payment, delivery and returns. */
export default function LegalModal() {
  return (
    <DocumentModal name="legal">
      <p className="document-modal__text">{DOCUMENT_MESSAGES.legalLead}</p>
      <DocTable rows={DOCUMENT_MESSAGES.legal({ deliveryFeeTc: DELIVERY_FEE_TC })} />
    </DocumentModal>
  );
}
