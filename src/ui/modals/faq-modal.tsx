import {
  KUJI_PER_DELIVERY_PARCEL,
  DELIVERY_FEE_TC,
  PLAY_TIMINGS,
  SECOND_MS,
  TURN_NEAR_PLACE,
  VIP_PURCHASE_WINDOW_DAYS,
  VIP_REQUIRED_PURCHASE_TC,
  VIP_WEEKLY_PRIZE_LIMIT,
  weekStartText,
} from '../../domain';
import { DocumentModal } from './document-modal';
import { DOCUMENT_MESSAGES } from './documents.messages';

const FAQ = DOCUMENT_MESSAGES.faq({
  confirmSeconds: PLAY_TIMINGS.confirmMs / SECOND_MS,
  buttonSeconds: PLAY_TIMINGS.buttonLimitMs / SECOND_MS,
  continueSeconds: PLAY_TIMINGS.continueMs / SECOND_MS,
  graceSeconds: PLAY_TIMINGS.graceMs / SECOND_MS,
  turnNearPlace: TURN_NEAR_PLACE,
  deliveryFeeTc: DELIVERY_FEE_TC,
  kujiPerParcel: KUJI_PER_DELIVERY_PARCEL,
  vipRequiredTc: VIP_REQUIRED_PURCHASE_TC,
  vipWindowDays: VIP_PURCHASE_WINDOW_DAYS,
  vipWeeklyLimit: VIP_WEEKLY_PRIZE_LIMIT,
  vipWeekStart: weekStartText('long'),
});

/**
 * よくある質問 (spec §2.5 FAQ): questions about playing, the queue, TC, delivery, VIP and machine
 * faults, each a <details> that opens by click, Enter or Space. Numbers come from the domain.
 */
export default function FaqModal() {
  return (
    <DocumentModal name="faq">
      <p className="document-modal__text">{DOCUMENT_MESSAGES.faqLead}</p>
      {FAQ.map((section) => (
        <section key={section.heading} className="document-modal__section">
          <h3 className="document-modal__heading">{section.heading}</h3>
          {section.items.map((item) => (
            <details key={item.question} className="faq-item">
              <summary className="faq-item__question">{item.question}</summary>
              <p className="faq-item__answer">{item.answer}</p>
            </details>
          ))}
        </section>
      ))}
    </DocumentModal>
  );
}
