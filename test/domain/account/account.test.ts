import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_FORM_MESSAGES,
  checkCode,
  checkNewPassword,
  checkPresentCode,
  DAY_MS,
  emailValidGuard,
  handlesMaintenancePush,
  isNewUser,
  missingAccountItems,
  PASSWORD_MAX,
  PASSWORD_MIN,
  PRESENT_CODE_LENGTH,
  showsFirstProfilePrompt,
  showsNewBadge,
  signInState,
  withIdentity,
  VERIFICATION_CODE_DIGITS,
  type AccountCompleteness,
} from '../../../src/domain';

const complete: AccountCompleteness = {
  address_bool: 1,
  is_sms: 1,
  email: 'a@example.com',
  sex: 2,
  birth: '2000-01-01',
  prefectures: '東京都',
  nickname: 'うさ',
};

describe('account flags', () => {
  it('[R4.7-1] the new-badge shows when address, phone verification, e-mail (web only) or a profile item is missing', () => {
    expect(showsNewBadge(complete, 'web')).toBe(false);
    expect(missingAccountItems({ ...complete, address_bool: 0 }, 'web')).toEqual(['address']);
    expect(missingAccountItems({ ...complete, is_sms: false }, 'web')).toEqual(['phone']);
    expect(missingAccountItems({ ...complete, email: '' }, 'web')).toEqual(['email']);
    expect(missingAccountItems({ ...complete, email: '' }, 'ios')).toEqual([]);
    for (const gap of [{ sex: 0 }, { birth: '' }, { prefectures: ' ' }, { nickname: '' }]) {
      expect(missingAccountItems({ ...complete, ...gap }, 'web')).toEqual(['profile']);
    }
    expect(showsNewBadge({ ...complete, nickname: '' }, 'mobage')).toBe(true);
  });

  it('[R4.7-2] a new user was created within 7 days', () => {
    const now = Date.UTC(2026, 0, 10);
    expect(isNewUser(now - 7 * DAY_MS, now)).toBe(true);
    expect(isNewUser(now - 7 * DAY_MS - 1, now)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60 * DAY_MS }), (age) => {
        expect(isNewUser(now - age, now)).toBe(age <= 7 * DAY_MS);
      }),
    );
  });

  it('[R4.7-3] the first-profile prompt: (new user or unregistered nickname) and (sex, birth or nickname missing)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        (isNew, unregistered, noSex, noBirth, noNick) => {
          const shown = showsFirstProfilePrompt({
            isNewUser: isNew,
            isNicknameUnregistered: unregistered,
            sex: noSex ? 0 : 1,
            birth: noBirth ? '' : '2001-02-03',
            nickname: noNick ? '' : 'ねこ',
          });
          expect(shown).toBe((isNew || unregistered) && (noSex || noBirth || noNick));
        },
      ),
    );
  });
});

describe('sign-in', () => {
  it('[R4.1-1] the product is signed in with a user id and token, signed out otherwise', () => {
    expect(signInState({ user_id: 7, access_token: 'tok' })).toEqual({
      kind: 'signedIn',
      identity: { user_id: 7, access_token: 'tok' },
    });
    for (const auth of [
      null,
      undefined,
      {},
      { user_id: 7 },
      { user_id: 7, access_token: '' },
      { user_id: 0, access_token: 't' },
      { user_id: null, access_token: 't' },
    ]) {
      expect(signInState(auth)).toEqual({ kind: 'signedOut' });
    }
  });

  it('[R3-1] an authenticated body carries access_token and user_id', () => {
    expect(withIdentity({ user_id: 3, access_token: 'a' }, { page: 1, user_id: 99 })).toEqual({
      page: 1,
      user_id: 3,
      access_token: 'a',
    });
  });

  it('[R4.1-2] users with status 3 ignore maintenance pushes; others and guests handle them', () => {
    expect(handlesMaintenancePush(3)).toBe(false);
    for (const s of [0, 1, 2, 4, null, undefined]) expect(handlesMaintenancePush(s)).toBe(true);
  });

  it('[R2.2-2] /emailvalid admits only signed-in, unverified accounts created after the cutoff', () => {
    const cutoffMs = Date.UTC(2025, 5, 1);
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: cutoffMs - 10 * DAY_MS, max: cutoffMs + 10 * DAY_MS })),
        (signedIn, verified, created) => {
          const d = emailValidGuard({ signedIn, emailVerified: verified, createdAtMs: created, cutoffMs });
          const admit = signedIn && !verified && created !== null && created > cutoffMs;
          expect(d).toEqual(admit ? { kind: 'admit' } : { kind: 'redirect', to: '/' });
        },
      ),
    );
    expect(emailValidGuard({ signedIn: true, emailVerified: false, createdAtMs: cutoffMs, cutoffMs }).kind).toBe(
      'redirect',
    );
  });
});

describe('account form limits', () => {
  it('a code, a present code and a new password are checked against the limits their messages state', () => {
    const digits = (n: number) => '7'.repeat(n);
    expect(checkCode(digits(VERIFICATION_CODE_DIGITS))).toEqual({ ok: true, value: digits(VERIFICATION_CODE_DIGITS) });
    for (const n of [VERIFICATION_CODE_DIGITS - 1, VERIFICATION_CODE_DIGITS + 1])
      expect(checkCode(digits(n))).toEqual({ ok: false, message: ACCOUNT_FORM_MESSAGES.codeFormat });
    expect(ACCOUNT_FORM_MESSAGES.codeFormat).toContain(`${VERIFICATION_CODE_DIGITS}桁`);

    const { min, max } = PRESENT_CODE_LENGTH;
    expect(checkPresentCode('a'.repeat(min)).ok).toBe(true);
    expect(checkPresentCode('a'.repeat(max)).ok).toBe(true);
    for (const n of [min - 1, max + 1])
      expect(checkPresentCode('a'.repeat(n))).toEqual({ ok: false, message: ACCOUNT_FORM_MESSAGES.presentCodeFormat });
    expect(ACCOUNT_FORM_MESSAGES.presentCodeFormat).toContain(`${min}〜${max}文字`);

    const password = (n: number) => 'a1'.repeat(n).slice(0, n);
    expect(checkNewPassword(password(PASSWORD_MIN)).ok).toBe(true);
    expect(checkNewPassword(password(PASSWORD_MAX)).ok).toBe(true);
    expect(checkNewPassword(password(PASSWORD_MIN - 1))).toEqual({
      ok: false,
      message: ACCOUNT_FORM_MESSAGES.passwordTooShort,
    });
    expect(checkNewPassword(password(PASSWORD_MAX + 1))).toEqual({
      ok: false,
      message: ACCOUNT_FORM_MESSAGES.passwordTooLong,
    });
    expect(ACCOUNT_FORM_MESSAGES.passwordTooShort).toContain(`${PASSWORD_MIN}文字以上`);
    expect(ACCOUNT_FORM_MESSAGES.passwordTooLong).toContain(`${PASSWORD_MAX}文字以内`);
  });
});
