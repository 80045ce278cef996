/** @vitest-environment jsdom */
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_MESSAGES } from '../../src/contract/messages';
import { SERVER_MESSAGES } from '../../server/messages';
import {
  DEBUG_WELCOME_TC,
  DELIVERY_FEE_TC,
  DOMAIN_MESSAGES,
  EMAIL_MAX_LENGTH,
  formatThousands,
  KUJI_PER_DELIVERY_PARCEL,
  MINOR_MONTHLY_LIMITS,
  MINUTE_MS,
  NEW_ARRIVALS_LIMIT,
  NICKNAME_MAX,
  PASSWORD_MIN,
  PRIZE_STORAGE_DAYS,
  SPENDING_LIMIT_RAISE_DELAY_MS,
  HOUR_MS,
  STORAGE_NOTICE_DAYS,
  VERIFICATION_CODE_DIGITS,
  VERIFICATION_CODE_TTL_MS,
  weekStartText,
} from '../../src/domain';
import { ACCOUNT } from '../../src/ui/account/account.messages';
import { CODE_FIELD, EMAIL_FIELD, PASSWORD_FIELD } from '../../src/ui/account/account-fields';
import DeliveryAboutModal from '../../src/ui/delivery/delivery-about-modal';
import { DELIVERY, DELIVERY_RULE_NUMBERS, type DeliveryRuleNumbers } from '../../src/ui/delivery/delivery.messages';
import { DOCUMENT_MESSAGES } from '../../src/ui/modals/documents.messages';
import { MESSAGES } from '../../src/ui/messages';
import { minorCapsText, PURCHASE_MODAL, SPENDING_LIMIT_MESSAGES } from '../../src/ui/purchase/purchase.messages';
import { EMAIL_VALID, STOREFRONT } from '../../src/ui/storefront.messages';

afterEach(cleanup);

/** Other rules than the domain's: a text that kept a number of its own would not follow them. */
const OTHER: DeliveryRuleNumbers = {
  feeTc: 9_500,
  kujiPerParcel: 12,
  storageDays: 45,
  noticeDays: [10, 3],
  weekStart: weekStartText('short', { weekday: 6, hour: 5 }),
};

const modalProps = { props: {}, close: () => undefined, open: () => false, swap: () => false };

describe('texts that state a rule take its number from the domain', () => {
  it('[R9-1] [R10-5] [R10-6] the delivery about text and the fee rule state the domain numbers', () => {
    expect(DELIVERY_RULE_NUMBERS).toEqual({
      feeTc: DELIVERY_FEE_TC,
      kujiPerParcel: KUJI_PER_DELIVERY_PARCEL,
      storageDays: PRIZE_STORAGE_DAYS,
      noticeDays: STORAGE_NOTICE_DAYS,
      weekStart: weekStartText(),
    });
    const about = render(<DeliveryAboutModal {...modalProps} />).getByTestId('delivery-about').textContent;
    const fee = `${formatThousands(DELIVERY_FEE_TC)}TC`;
    expect(about).toContain(`発送手数料は1個${fee}、くじ景品は${KUJI_PER_DELIVERY_PARCEL}個ごとに${fee}です。`);
    expect(about).toContain(`無料発送チケットは${weekStartText()}に1枚届きます`);
    expect(about).toContain(`保管期限は獲得から${PRIZE_STORAGE_DAYS}日です。`);
    expect(about).toContain(`期限の${STORAGE_NOTICE_DAYS.map((d) => `${d}日前`).join('と')}にお知らせします。`);
    // The spec's numbers, as the player reads them today.
    expect(about).toContain('1個8,000TC、くじ景品は15個ごとに8,000TC');
    expect(about).toContain('毎週月曜0時に1枚届きます');
    expect(about).toContain('獲得から30日です。期限の7日前と1日前にお知らせします。');
    expect(DELIVERY.feeRule()).toBe('クレーン・オーダーメイド景品は1個8,000TC、くじ景品は15個ごとに8,000TCです。');
    expect(DELIVERY.ticketNext('2026/12/07 00:00')).toBe(
      '無料発送チケットは毎週月曜0時に届きます（次回 2026/12/07 00:00）。',
    );
  });

  it('[R9-1] [R10-5] [R10-6] with other rules, the delivery texts state those and none of the domain numbers', () => {
    const texts = [...DELIVERY.about(OTHER), DELIVERY.feeRule(OTHER), DELIVERY.ticketNext('2026/12/06 05:00', OTHER)];
    const all = texts.join('\n');
    expect(DELIVERY.feeRule(OTHER)).toBe('クレーン・オーダーメイド景品は1個9,500TC、くじ景品は12個ごとに9,500TCです。');
    expect(all).toContain('毎週日曜5時に1枚届きます');
    expect(all).toContain('無料発送チケットは毎週日曜5時に届きます（次回 2026/12/06 05:00）。');
    expect(all).toContain('獲得から45日です。期限の10日前と3日前にお知らせします。');
    for (const own of ['8,000', '15個', '30日', '7日前', '1日前', '月曜']) expect(all).not.toContain(own);
  });

  it('[R6-4] [R8-3] the weekly VIP limit texts state when the week starts, from the domain', () => {
    expect(DOMAIN_MESSAGES.vipWeeklyLimitText).toBe(`VIP景品の獲得数は${weekStartText('long')}にリセットされます。`);
    const sunday = weekStartText('long', { weekday: 6, hour: 5 });
    expect(DOCUMENT_MESSAGES.profitWeekly({ weeklyLimit: 2, weekStart: sunday })).toBe(
      'VIP景品の獲得は1週間に2個までです。獲得数は毎週日曜日5時（日本時間）にリセットされます。',
    );
    const faq = DOCUMENT_MESSAGES.faq({
      confirmSeconds: 1,
      buttonSeconds: 1,
      continueSeconds: 1,
      graceSeconds: 1,
      turnNearPlace: 1,
      deliveryFeeTc: 1,
      kujiPerParcel: 1,
      vipRequiredTc: 1,
      vipWindowDays: 1,
      vipWeeklyLimit: 2,
      vipWeekStart: sunday,
    });
    const answers = faq.flatMap((section) => section.items.map((item) => item.answer)).join('\n');
    expect(answers).toContain('獲得数は毎週日曜日5時（日本時間）にリセットされます。');
    expect(answers).not.toContain('月曜');
  });

  it("the account forms' hints, labels and limits state the domain's limits", () => {
    expect(ACCOUNT.passwordHint).toContain(`${PASSWORD_MIN}文字以上`);
    expect(ACCOUNT.nicknameHint).toContain(`${NICKNAME_MAX}文字以内`);
    expect(ACCOUNT.code).toBe(`認証コード（${VERIFICATION_CODE_DIGITS}桁）`);
    expect(ACCOUNT.phoneLead).toContain(`${VERIFICATION_CODE_DIGITS}桁のコード`);
    expect(EMAIL_VALID.lead).toContain(`${VERIFICATION_CODE_DIGITS}桁のコード`);
    expect(CONTRACT_MESSAGES.emailTooLong).toBe(`メールアドレスは${EMAIL_MAX_LENGTH}文字以内で入力してください。`);
    expect(CODE_FIELD.maxLength).toBe(VERIFICATION_CODE_DIGITS);
    expect(EMAIL_FIELD.maxLength).toBe(EMAIL_MAX_LENGTH);
    // The numbers as players read them today.
    expect(ACCOUNT.passwordHint).toBe('8文字以上、英字と数字を含めてください。');
    expect(ACCOUNT.code).toBe('認証コード（6桁）');
    expect(PASSWORD_FIELD.maxLength).toBe(128);
  });

  it('[R10-3] [R9-2] the purchase caps, the spending limit delay, the new arrivals, the code validity and the debug grant come from the domain', () => {
    expect(minorCapsText(MINOR_MONTHLY_LIMITS)).toBe('16歳未満は月5,000円まで、16歳以上20歳未満は月10,000円まで');
    expect(PURCHASE_MODAL.ageMinorNote).toContain(minorCapsText(MINOR_MONTHLY_LIMITS));
    expect(
      minorCapsText([
        { under: 13, yen: 3_000 },
        { under: 18, yen: 20_000 },
      ]),
    ).toBe('13歳未満は月3,000円まで、13歳以上18歳未満は月20,000円まで');
    expect(SPENDING_LIMIT_MESSAGES.lead).toContain(`${SPENDING_LIMIT_RAISE_DELAY_MS / HOUR_MS}時間後に有効`);
    expect(STOREFRONT.arrivalItemsLead).toContain(`最新${NEW_ARRIVALS_LIMIT}件`);
    const minutes = VERIFICATION_CODE_TTL_MS / MINUTE_MS;
    expect(EMAIL_VALID.sentAtSignUp('a@example.com')).toContain(`${minutes}分有効`);
    expect(SERVER_MESSAGES.emailCodeBody('123456')).toContain(`${minutes}分以内`);
    expect(SERVER_MESSAGES.passwordResetBody('123456')).toContain(`${minutes}分以内`);
    expect(SERVER_MESSAGES.smsCodeBody('123456')).toBe(`【オンクレ】認証コード: 123456（${minutes}分間有効）`);
    expect(SERVER_MESSAGES.numbersRange(45)).toBe('集計期間は開始日から終了日まで、45日以内で指定してください。');
    expect(MESSAGES.debugLoginHelp).toContain(`初回は${formatThousands(DEBUG_WELCOME_TC)} TCを受け取ります`);
    // As players read them today.
    expect(SPENDING_LIMIT_MESSAGES.lead).toContain('24時間後に有効');
    expect(EMAIL_VALID.sentAtSignUp('a@example.com')).toContain('30分有効');
  });
});
