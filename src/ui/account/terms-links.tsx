import { ACCOUNT as A } from './account.messages';

/** The two documents an agreement refers to, each opened as a modal over the form or dialog. */
export function TermsLinks({ onOpen }: { readonly onOpen: (document: 'usageRules' | 'privacy') => void }) {
  return (
    <p className="account-form__links">
      <button type="button" className="link-button" onClick={() => onOpen('usageRules')}>
        {A.readUsageRules}
      </button>
      <button type="button" className="link-button" onClick={() => onOpen('privacy')}>
        {A.readPrivacy}
      </button>
    </p>
  );
}
