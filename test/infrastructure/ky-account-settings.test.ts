import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS, type AccountPort, type SessionPort } from '../../src/application';
import { createAppContainer } from '../../src/main/container';
import { startTestServer, type TestServer } from '../support/test-server';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { createTestUser } from '../support/users';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ listen: true, inMemory: true });
});
afterAll(async () => t?.close());

/** The real account adapter over HTTP, with every request body it sends recorded on the way out. */
async function recordingAccount() {
  const sent: { path: string; body: unknown }[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    sent.push({ path: new URL(request.url).pathname, body: JSON.parse(await request.clone().text()) });
    return fetch(request);
  };
  const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase }, [], {
    storage: null,
    cookies: () => '',
    navigator: { reload: () => undefined, goTo: () => undefined },
    fetch: recordingFetch,
  });
  container.get<SessionPort>(TOKENS.SessionPort).signIn(await createTestUser(t));
  return { account: container.get<AccountPort>(TOKENS.AccountPort), sent };
}

describe('KyAccount settings on the wire', () => {
  it('[R3-18][R5-1] sends the hide-character and volume flags as the numbers 1 or 0, never booleans', async () => {
    const { account, sent } = await recordingAccount();
    expect(await firstValueFrom(account.setHideCharacter(true))).toBe(1);
    expect(await firstValueFrom(account.setVolume(false))).toBe(0);
    expect(sent.map((s) => s.path)).toEqual(['/api/user/set_hide_character', '/api/user/set_volume']);
    expect(sent[0]?.body).toMatchObject({ set_hide_character: { character: 1 } });
    expect(sent[1]?.body).toMatchObject({ set_volume: { volume: 0 } });
    // toMatchObject compares with Object.is: `true` would not match 1, but check the type outright too.
    expect(typeof (sent[0]?.body as { set_hide_character: { character: unknown } }).set_hide_character.character).toBe(
      'number',
    );
    expect(typeof (sent[1]?.body as { set_volume: { volume: unknown } }).set_volume.volume).toBe('number');
  });
});
