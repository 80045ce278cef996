import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_BOUNDS,
  addressFromForm,
  addressToForm,
  checkEmail,
  checkPhone,
  checkZip,
  formatZip,
  isAddressPresent,
  normalizeZip,
  PREFECTURES,
  validateAddressForm,
  VALIDATION_MESSAGES,
  type AddressForm,
  type AddressRecord,
} from '../../../src/domain';

const record: AddressRecord = {
  id: 1,
  is_main: 1,
  first_name: '花子',
  last_name: '山田',
  zip: '1000001',
  address1: '東京都',
  address2: '千代田区千代田',
  address3: '1-1 オンクレビル101',
  tel: '09012345678',
  email: 'hanako@example.com',
  lead_times: '午前中',
};

describe('address presence', () => {
  it('[R5-5] an address is present only when zip and address1–3 are all set, for every combination of empty fields', () => {
    const field = fc.constantFrom('', '  ', 'x', '東京都');
    fc.assert(
      fc.property(field, field, field, field, (zip, address1, address2, address3) => {
        const set = [zip, address1, address2, address3].every((v) => v.trim() !== '');
        expect(isAddressPresent({ zip, address1, address2, address3 })).toBe(set);
      }),
    );
    expect(isAddressPresent(null)).toBe(false);
    expect(isAddressPresent(record)).toBe(true);
  });
});

describe('address mapping', () => {
  it('[R3-3] maps is_main, first_name, last_name and lead_times to isMain, firstName, lastName and leadTimes', () => {
    expect(addressToForm(record)).toEqual({
      id: 1,
      isMain: true,
      firstName: '花子',
      lastName: '山田',
      zip: '1000001',
      address1: '東京都',
      address2: '千代田区千代田',
      address3: '1-1 オンクレビル101',
      tel: '09012345678',
      email: 'hanako@example.com',
      leadTimes: '午前中',
    });
  });

  it('[R3-3] wire → form → wire gives the record back', () => {
    const arb = fc.record({
      id: fc.nat(),
      is_main: fc.constantFrom(0 as const, 1 as const),
      first_name: fc.string(),
      last_name: fc.string(),
      zip: fc.string(),
      address1: fc.string(),
      address2: fc.string(),
      address3: fc.string(),
      tel: fc.string(),
      email: fc.string(),
      lead_times: fc.string(),
    });
    fc.assert(
      fc.property(arb, (r) => {
        expect(addressFromForm(addressToForm(r))).toEqual(r);
      }),
    );
  });
});

describe('address validation', () => {
  const valid: AddressForm = addressToForm(record);

  it('accepts postal codes of 7 digits with or without the hyphen, full-width too', () => {
    for (const zip of ['1000001', '100-0001', '１００－０００１', ' 100ー0001 '])
      expect(normalizeZip(zip)).toBe('1000001');
    for (const zip of ['100001', '10000011', '10-00001', '100_0001', 'abcdefg', ''])
      expect(normalizeZip(zip)).toBeNull();
    expect(checkZip('')).toEqual({ ok: false, message: '郵便番号を入力してください。' });
    expect(checkZip('12345')).toEqual({ ok: false, message: VALIDATION_MESSAGES.zipFormat });
    expect(formatZip('1000001')).toBe('100-0001');
  });

  it('every 7-digit code, hyphenated or not, is accepted', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7}$/), fc.boolean(), (digits, hyphen) => {
        const text = hyphen ? `${digits.slice(0, 3)}-${digits.slice(3)}` : digits;
        expect(normalizeZip(text)).toBe(digits);
      }),
    );
  });

  it('accepts Japanese landline (10 digits) and mobile (11 digits) numbers, hyphens allowed', () => {
    for (const tel of [
      '03-1234-5678',
      '0312345678',
      '0120-123-456',
      '090-1234-5678',
      '08012345678',
      '050-1234-5678',
      '０９０－１２３４－５６７８',
    ]) {
      expect(checkPhone(tel).ok).toBe(true);
    }
    expect(checkPhone('090-1234-5678')).toEqual({ ok: true, value: '09012345678' });
    for (const tel of ['123456789', '090123456789', '03--1234-5678', '-0312345678', '0312345678-', '03 1234 5678']) {
      expect(checkPhone(tel)).toEqual({ ok: false, message: VALIDATION_MESSAGES.telLength });
    }
    for (const tel of ['1234567890', '0012345678', '04012345678', '01012345678']) {
      expect(checkPhone(tel)).toEqual({ ok: false, message: VALIDATION_MESSAGES.telFormat });
    }
    expect(checkPhone('')).toEqual({ ok: false, message: '電話番号を入力してください。' });
  });

  it('validates a whole form: required fields, bounds, prefecture, and one message per field', () => {
    const ok = validateAddressForm({ ...valid, zip: '100-0001', tel: '090-1234-5678', lastName: ' 山田 ' });
    expect(ok.valid).toBe(true);
    expect(ok.errors).toEqual({});
    expect(ok.normalized).toMatchObject({ zip: '1000001', tel: '09012345678', lastName: '山田' });

    const bad = validateAddressForm({
      ...valid,
      lastName: '',
      firstName: 'あ'.repeat(ADDRESS_BOUNDS.firstNameMax + 1),
      address1: '東京',
      address2: 'a\u0007b',
      address3: '建'.repeat(ADDRESS_BOUNDS.addressLineMax + 1),
      email: 'not-an-email',
    });
    expect(bad.valid).toBe(false);
    expect(bad.errors).toEqual({
      lastName: '姓を入力してください。',
      firstName: `名は${ADDRESS_BOUNDS.firstNameMax}文字以内で入力してください。`,
      address1: VALIDATION_MESSAGES.prefecture,
      address2: '市区町村に使用できない文字が含まれています。',
      address3: `番地・建物名は${ADDRESS_BOUNDS.addressLineMax}文字以内で入力してください。`,
      email: VALIDATION_MESSAGES.emailFormat,
    });
  });

  it('counts name lengths in characters, so the bound holds for kanji outside the BMP', () => {
    expect(validateAddressForm({ ...valid, lastName: '𠮷'.repeat(ADDRESS_BOUNDS.lastNameMax) }).valid).toBe(true);
    expect(validateAddressForm({ ...valid, lastName: '𠮷'.repeat(ADDRESS_BOUNDS.lastNameMax + 1) }).valid).toBe(false);
  });

  it('knows the 47 prefectures, and e-mail is optional', () => {
    expect(PREFECTURES).toHaveLength(47);
    expect(new Set(PREFECTURES).size).toBe(47);
    for (const p of PREFECTURES) expect(validateAddressForm({ ...valid, address1: p }).valid).toBe(true);
    expect(checkEmail('')).toEqual({ ok: true, value: '' });
    expect(checkEmail('a@b.jp').ok).toBe(true);
    expect(checkEmail('a@b').ok).toBe(false);
  });
});
