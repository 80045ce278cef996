import {
  VIP_PURCHASE_WINDOW_DAYS,
  VIP_REQUIRED_PURCHASE_TC,
  VIP_WEEKLY_PRIZE_LIMIT,
  weekStartText,
} from '../../domain';
import { DocList, DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES as M } from './documents.messages';

/**
 * VIP特典 (spec §2.5 profit): what a VIP gets, the purchase condition [R6-3] and the weekly VIP
 * prize limit and when it resets [R6-4], with the domain's constants.
 */
export default function ProfitModal() {
  return (
    <DocumentModal name="profit">
      <p className="document-modal__text">{M.profitLead}</p>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.profitConditionHeading}</h3>
        <p className="document-modal__text document-modal__emphasis" data-testid="vip-condition">
          {M.profitCondition({ requiredTc: VIP_REQUIRED_PURCHASE_TC, windowDays: VIP_PURCHASE_WINDOW_DAYS })}
        </p>
        <DocList items={M.profitConditionNotes({ windowDays: VIP_PURCHASE_WINDOW_DAYS })} />
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.profitBenefitsHeading}</h3>
        <DocList items={M.profitBenefits} />
      </section>
      <section className="document-modal__section">
        <h3 className="document-modal__heading">{M.profitWeeklyHeading}</h3>
        <p className="document-modal__text" data-testid="vip-weekly">
          {M.profitWeekly({ weeklyLimit: VIP_WEEKLY_PRIZE_LIMIT, weekStart: weekStartText('long') })}
        </p>
      </section>
    </DocumentModal>
  );
}
