import { describe, expect, it } from 'vitest';
import {
  isAcceptableText,
  isEmailAddress,
  textProblem,
  validateAddressForm,
  type AddressForm,
} from '../../../src/domain';
import { emailSchema, nicknameSchema } from '../../../src/contract';

const refused: ReadonlyArray<readonly [string, string, ReturnType<typeof textProblem>]> = [
  ['right-to-left override U+202E', 'abc\u202Egpj.exe', 'bidi'],
  ['left-to-right embedding U+202A', '\u202Aname', 'bidi'],
  ['pop directional formatting U+202C', 'na\u202Cme', 'bidi'],
  ['first strong isolate U+2068', 'na\u2068me', 'bidi'],
  ['pop directional isolate U+2069', 'name\u2069', 'bidi'],
  ['zero width space only U+200B', '\u200B', 'invisible'],
  ['Hangul filler only U+3164', '\u3164\u3164', 'invisible'],
  ['Hangul choseong filler only U+115F', '\u115F', 'invisible'],
  ['byte order mark only U+FEFF', '\uFEFF', 'invisible'],
  ['whitespace and format characters only', ' \u3000\u200B\u2060 ', 'invisible'],
  ['empty', '', 'invisible'],
  ['noncharacter U+FFFF', 'name\uFFFF', 'noncharacter'],
  ['noncharacter U+FFFE', '\uFFFEname', 'noncharacter'],
  ['noncharacter U+FDD0', 'na\uFDD0me', 'noncharacter'],
  ['noncharacter U+FDEF', 'na\uFDEFme', 'noncharacter'],
  ['noncharacter U+10FFFF', 'name\u{10FFFF}', 'noncharacter'],
  ['lone surrogate', 'na\uD800me', 'noncharacter'],
  ['NUL', 'na\u0000me', 'control'],
  ['newline', 'na\nme', 'control'],
  ['C1 control U+0085', 'na\u0085me', 'control'],
  ['line separator U+2028', 'na\u2028me', 'control'],
  ['paragraph separator U+2029', 'na\u2029me', 'control'],
];

const accepted = [
  'クレーン太郎',
  'Taro',
  '山田 花子',
  'ｵﾝｸﾚ',
  '😀プレイヤー',
  "O'Brien",
  '東京都渋谷区神宮前1-2-3',
  'オンクレハイツ101号室',
  '한글이름',
];

describe('text policy (issue 7 §5.7): one rule for nicknames and address fields', () => {
  it.each(refused)('refuses %s', (_name, text, problem) => {
    expect(textProblem(text)).toBe(problem);
    expect(isAcceptableText(text)).toBe(false);
  });

  it.each(accepted)('accepts %s', (text) => {
    expect(textProblem(text)).toBeNull();
  });

  const form = (over: Partial<AddressForm>): AddressForm =>
    ({
      lastName: '山田',
      firstName: '花子',
      zip: '150-0001',
      address1: '東京都',
      address2: '渋谷区神宮前1-2-3',
      address3: 'オンクレハイツ101',
      tel: '090-1234-5678',
      email: '',
      ...over,
    }) as AddressForm;

  it.each(refused.filter(([, text]) => text.trim() !== ''))(
    'the nickname schema and every address text field refuse %s alike',
    (_name, text) => {
      expect(nicknameSchema.safeParse(text).success).toBe(false);
      for (const field of ['lastName', 'firstName', 'address2', 'address3'] as const) {
        const v = validateAddressForm(form({ [field]: text }));
        expect(v.valid, field).toBe(false);
        expect(v.errors[field], field).toMatch(/使用できない文字|入力してください/);
      }
    },
  );

  it.each(accepted.filter((a) => a.length <= 16))('the nickname schema and an address line accept %s', (text) => {
    expect(nicknameSchema.safeParse(text).success).toBe(true);
    expect(validateAddressForm(form({ address3: text })).errors.address3).toBeUndefined();
  });
});

describe('one e-mail check for account and address e-mail (issue 7 §5.7)', () => {
  const bad = [
    '<svg/onload=alert(1)>@x.jp',
    '<>',
    '<>@example.jp',
    'a"b@example.jp',
    'a b@example.jp',
    'a@b',
    '@example.jp',
    'a@example..jp',
    'a@-x.jp',
    'a\u202E@example.jp',
    'a\u0000@example.jp',
    'ａ@example.jp',
    `${'a'.repeat(65)}@example.jp`,
  ];
  const good = ['onkure@example.com', 'first.last+tag@mail.example.co.jp', 'a_b-c@x-y.jp', 'ABC@EXAMPLE.JP'];

  it.each(bad)('refuses %s for both', (email) => {
    expect(isEmailAddress(email)).toBe(false);
    expect(emailSchema.safeParse(email).success).toBe(false);
    expect(
      validateAddressForm({
        lastName: '山田',
        firstName: '花子',
        zip: '1500001',
        address1: '東京都',
        address2: '渋谷区',
        address3: '1-2-3',
        tel: '09012345678',
        email,
      } as AddressForm).errors.email,
    ).toBeDefined();
  });

  it.each(good)('accepts %s for both', (email) => {
    expect(isEmailAddress(email)).toBe(true);
    expect(emailSchema.safeParse(email).success).toBe(true);
    expect(
      validateAddressForm({
        lastName: '山田',
        firstName: '花子',
        zip: '1500001',
        address1: '東京都',
        address2: '渋谷区',
        address3: '1-2-3',
        tel: '09012345678',
        email,
      } as AddressForm).errors.email,
    ).toBeUndefined();
  });
});
