import { DocSections, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

/** プライバシーポリシー (spec §2.5 privacy policy). */
export default function PrivacyModal() {
  return (
    <DocumentModal name="privacy">
      <p className="document-modal__text">{DOCUMENT_MESSAGES.privacyLead}</p>
      <DocSections sections={DOCUMENT_MESSAGES.privacy} />
      <p className="document-modal__enacted">{DOCUMENT_MESSAGES.enacted}</p>
    </DocumentModal>
  );
}
