import { DocSections, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

/** 利用規約 (spec §2.5 usage rules). */
export default function UsageRulesModal() {
  return (
    <DocumentModal name="usageRules">
      <DocSections sections={DOCUMENT_MESSAGES.usageRules} />
      <p className="document-modal__enacted">{DOCUMENT_MESSAGES.enacted}</p>
    </DocumentModal>
  );
}
