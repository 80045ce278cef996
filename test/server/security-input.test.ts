import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectRefusedUnchanged, JAPANESE, post, validAddress } from './user-helpers';

let t: TestServer;
let u: TestUser;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
  u = await createTestUser(t);
});
afterAll(async () => t?.close());

describe('the server applies the one text policy (issue 7 §5.7)', () => {
  it.each(['abc\u202Edef', '\u200B', '\u3164', 'name\uFFFF', 'na\u2028me', 'na\u2066me'])(
    'refuses the nickname %j with a Japanese 400',
    async (nickname) => {
      const r = await expectRefusedUnchanged(
        t,
        () => post(t, 'account/nickname/set', as(u, { nickname: { nickname } })),
        400,
      );
      expect(r.json.error_info).toMatch(JAPANESE);
    },
  );

  it.each([
    ['email', '<svg/onload=alert(1)>@x.jp'],
    ['email', '<>'],
    ['address3', 'オンクレ\u2028ハイツ'],
    ['last_name', '\u202E田山'],
    ['first_name', '\u200B'],
  ])('refuses the address %s %j with a Japanese 400', async (field, value) => {
    const r = await expectRefusedUnchanged(
      t,
      () => post(t, 'account/address/register', as(u, { address: validAddress({ [field]: value }) })),
      400,
    );
    expect(r.json.error_info).toMatch(JAPANESE);
  });
});
