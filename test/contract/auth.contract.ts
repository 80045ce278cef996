import { expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { isNotSignedInError } from '../../src/infrastructure';
import { forgedClient, latestCode, once, refusal, uniqueDebugName, uniqueEmail } from './contract-helpers';
import type { ContractDriver } from './harness';

/** Sign-up, login, logout, debug login and e-mail verification (docs/api/user.md), as every implementation must answer them. */
export function authContract(driver: () => ContractDriver): void {
  it('[R7-6][R4.1-1] POST auth/signup creates the account and signs it in; the identity it answers works', async () => {
    const client = driver().client();
    const email = uniqueEmail();
    const signed = await once(client.get(TOKENS.AuthPort).signUp(email, 'pass1234word'));
    expect(client.get(TOKENS.SessionPort).current()).toEqual(signed.identity);
    expect(Date.parse(signed.expiresAt)).toBeGreaterThan(Date.now());
    expect(await once(client.get(TOKENS.AccountPort).email())).toEqual({ email, verified: false });
  });

  it('[R7-6] POST auth/signup answers a taken e-mail like a free one (issue 7 §5.5) and refuses a password without digits (400), in Japanese', async () => {
    const auth = driver().client().get(TOKENS.AuthPort);
    const email = uniqueEmail();
    await once(auth.signUp(email, 'pass1234word'));
    // No 409: the answer must not reveal that the address has an account; its owner gets a notice.
    await once(driver().client().get(TOKENS.AuthPort).signUp(email, 'other9876pass'));
    const weak = await refusal(driver().client().get(TOKENS.AuthPort).signUp(uniqueEmail(), 'onlyletters'), 400);
    expect(weak.info).toBe('パスワードには英字と数字を両方含めてください。');
    const badEmail = await refusal(driver().client().get(TOKENS.AuthPort).signUp('not-an-email', 'pass1234word'), 400);
    expect(badEmail.info).toBe('メールアドレスの形式が正しくありません。');
  });

  it('[R7-6][R4.1-1] POST auth/login signs in with the right pair; a wrong password is one message and leaves the session signed out', async () => {
    const email = uniqueEmail();
    const first = await once(driver().client().get(TOKENS.AuthPort).signUp(email, 'pass1234word'));
    const client = driver().client();
    const wrong = await refusal(client.get(TOKENS.AuthPort).logIn(email, 'pass1234wrong'), 401);
    expect(wrong.info).toBe('メールアドレスまたはパスワードが正しくありません。');
    const unknown = await refusal(client.get(TOKENS.AuthPort).logIn(uniqueEmail(), 'pass1234word'), 401);
    expect(unknown.info).toBe(wrong.info);
    expect(client.get(TOKENS.SessionPort).current()).toBeNull();
    const signed = await once(client.get(TOKENS.AuthPort).logIn(email.toUpperCase(), 'pass1234word'));
    expect(signed.identity.user_id).toBe(first.identity.user_id);
    expect(signed.identity.access_token).not.toBe(first.identity.access_token);
    expect(client.get(TOKENS.SessionPort).current()).toEqual(signed.identity);
  });

  it('[R7-6][R3-1] POST auth/logout revokes the token and signs out; the old token is refused with 401', async () => {
    const { identity, client } = await driver().newUser();
    await once(client.get(TOKENS.AuthPort).logOut());
    expect(client.get(TOKENS.SessionPort).current()).toBeNull();
    const again = driver().client();
    again.get(TOKENS.SessionPort).signIn(identity);
    await refusal(again.get(TOKENS.WalletPort).balance(), 401);
    // Logging out with the dead token still signs the device out.
    await refusal(again.get(TOKENS.AuthPort).logOut(), 401);
    expect(again.get(TOKENS.SessionPort).current()).toBeNull();
  });

  it('[R7-6][R6-6][R1-2] POST auth/debug_login makes the debug user once with 10,000 free TC and signs in', async () => {
    const name = uniqueDebugName();
    const client = driver().client();
    const first = await once(client.get(TOKENS.AuthPort).debugLogIn(name));
    expect(first.created).toBe(true);
    expect(client.get(TOKENS.SessionPort).current()).toEqual(first.identity);
    expect(await once(client.get(TOKENS.WalletPort).balance())).toEqual({
      tc_all: 10_000,
      tc_free: 10_000,
      tc_toll: 0,
    });
    expect((await once(client.get(TOKENS.AccountPort).profile())).nickname.nickname).toBe(
      `デバッグ${name}`.slice(0, 16),
    );
    const second = await once(driver().client().get(TOKENS.AuthPort).debugLogIn(name));
    expect(second.created).toBe(false);
    expect(second.identity.user_id).toBe(first.identity.user_id);
    await refusal(driver().client().get(TOKENS.AuthPort).debugLogIn('Not Valid!'), 400);
  });

  it('[R7-6][R2.2-2] POST auth/email/status, send_code, verify and dev_outbox: a new account must verify; the outbox code verifies it', async () => {
    const client = driver().client();
    const auth = client.get(TOKENS.AuthPort);
    const email = uniqueEmail();
    await once(auth.signUp(email, 'pass1234word'));
    const before = await once(auth.emailStatus());
    expect(before).toMatchObject({ email, verified: false, verifiedAt: null, verificationRequired: true });
    expect(Date.parse(before.createdAt)).toBeGreaterThan(Date.parse(before.cutoff));
    const outbox = await once(auth.devOutbox());
    expect(outbox[0]).toMatchObject({
      channel: 'email',
      recipient: email,
      subject: '【オンクレ】メールアドレス確認コード',
    });

    const sent = await once(auth.sendEmailCode());
    expect(Date.parse(sent.expiresAt)).toBeGreaterThan(Date.now());
    const code = await latestCode(client, 'email');
    const wrong = await refusal(auth.verifyEmail(code === '000000' ? '111111' : '000000'), 400);
    expect(wrong.info).toBe('認証コードが正しくないか、有効期限が切れています。');
    await refusal(auth.verifyEmail('12ab'), 400);
    const verified = await once(auth.verifyEmail(code));
    expect(verified.email).toBe(email);
    expect(await once(auth.emailStatus())).toMatchObject({ verified: true, verificationRequired: false });
    expect(await once(client.get(TOKENS.AccountPort).email())).toEqual({ email, verified: true });
  });

  it('[R7-6][R3-1] the e-mail calls refuse a forged identity with 401 and send nothing without a session', async () => {
    const { identity } = await driver().newUser();
    await refusal(forgedClient(driver(), identity.user_id).get(TOKENS.AuthPort).emailStatus(), 401);
    await refusal(forgedClient(driver(), identity.user_id).get(TOKENS.AuthPort).devOutbox(), 401);
    const error = await once(driver().client().get(TOKENS.AuthPort).emailStatus()).catch((e: unknown) => e);
    expect(isNotSignedInError(error)).toBe(true);
  });

  it('[R7-6] POST auth/email/send_code refuses an account with no e-mail, and answers an address another account uses like a free one', async () => {
    const taken = uniqueEmail();
    await once(driver().client().get(TOKENS.AuthPort).signUp(taken, 'pass1234word'));
    const { client } = await driver().newUser();
    const none = await refusal(client.get(TOKENS.AuthPort).sendEmailCode(), 400);
    expect(none.info).toBe('メールアドレスを入力してください。');
    // No 409 (issue 7 §5.5): no code is sent and the address's owner gets a notice instead.
    await once(client.get(TOKENS.AuthPort).sendEmailCode(taken));
  });
}
