import { Subject, filter, firstValueFrom, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CurrentUser, TOKENS, type CurrentUserState, type SessionPort } from '../../src/application';
import type { AuthIdentity, UserData } from '../../src/domain';
import { createAppContainer } from '../../src/main/container';
import { aLoginInfo, anIdentity, aUserData, FakeSession, ScriptedAccount } from '../../src/testing';
import { injectFetch } from '../support/inject-fetch';
import { TEST_CLIENT_CONFIG } from '../support/test-container';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

afterEach(() => {
  vi.restoreAllMocks();
});

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

/** Records every value an observable emits until the test ends. */
function recorded<T>(source$: Observable<T>): T[] {
  const values: T[] = [];
  source$.subscribe((v) => values.push(v));
  return values;
}

describe('CurrentUser against the reference server (real ky adapters, in-process through inject)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ inMemory: true });
  });
  afterAll(async () => t?.close());

  /** The app's real container over the test server; `paths` lists every call it makes. */
  function app(rewrite?: (path: string, body: string) => string) {
    const paths: string[] = [];
    const inject = injectFetch(t.server.app);
    const fetchVia: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const path = new URL(request.url).pathname;
      paths.push(path);
      const answer = await inject(request);
      if (!rewrite) return answer;
      const headers = new Headers(answer.headers);
      headers.delete('content-length');
      return new Response(rewrite(path, await answer.text()), { status: answer.status, headers });
    };
    const container = createAppContainer({ ...TEST_CLIENT_CONFIG, apiBase: t.apiBase, timeoutMs: 10_000 }, [], {
      storage: null,
      cookies: () => '',
      navigator: { reload: () => undefined, goTo: () => undefined },
      fetch: fetchVia,
    });
    return {
      container,
      paths,
      session: container.get<SessionPort>(TOKENS.SessionPort),
      current: container.get<CurrentUser>(TOKENS.CurrentUser),
    };
  }

  const nextUser = (current: CurrentUser, userId: number) =>
    firstValueFrom(current.user$.pipe(filter((u): u is UserData => u !== null && u.auth_info.user_id === userId)));

  it("[R6-2] [R2.6-4] loads the signed-in user's data with vip_level and tells a VIP user apart", async () => {
    const vip = await createTestUser(t, { vip_level: 2, nickname: 'ぶいあいぴー', email: 'vip@example.jp' });
    const { session, current, paths } = app();
    session.signIn(vip);
    const user = await nextUser(current, vip.user_id);
    expect(user.login_info.vip_level).toBe(2);
    expect(user.nickname_info.nickname).toBe('ぶいあいぴー');
    expect(user.email).toBe('vip@example.jp');
    // The token is the session's own: the service never sends it back.
    expect(user.auth_info.access_token).toBe(vip.access_token);
    expect(await firstValueFrom(current.isVip$)).toBe(true);
    expect(paths).toEqual(['/api/user/user_data']);
  });

  it("[R2.6-4] follows the session: another sign-in drops the previous user's data at once and loads the new user's; a sign-out is a guest", async () => {
    const vip = await createTestUser(t, { vip_level: 1 });
    const normal = await createTestUser(t, { vip_level: 0 });
    const { session, current } = app();
    const users = recorded(current.user$);
    const vipFlags = recorded(current.isVip$);
    session.signIn(vip);
    await nextUser(current, vip.user_id);
    const after = users.length;
    session.signIn(normal);
    const second = await nextUser(current, normal.user_id);
    expect(second.login_info.vip_level).toBe(0);
    // Once the identity changed, the previous user's data is never emitted again.
    expect(users.slice(after).some((u) => u?.auth_info.user_id === vip.user_id)).toBe(false);
    expect(users.slice(after)[0]).toBeNull();
    session.signOut();
    await flush();
    expect(users.at(-1)).toBeNull();
    expect(current.snapshot).toEqual({ kind: 'guest' });
    expect(vipFlags).toEqual([false, true, false]);
  });

  it('a guest asks for nothing: user$ is null and isVip$ false', async () => {
    const { current, paths } = app();
    const users = recorded(current.user$);
    const vipFlags = recorded(current.isVip$);
    await flush();
    expect(current.snapshot).toEqual({ kind: 'guest' });
    expect(users).toEqual([null]);
    expect(vipFlags).toEqual([false]);
    expect(paths).toEqual([]);
  });

  it('a refused call (revoked token) is logged and leaves null, without an error reaching the subscriber', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const u = await createTestUser(t, { vip_level: 3 });
    await t.server.services().identity.revoke(u.access_token);
    const { session, current } = app();
    session.signIn(u);
    const errors: unknown[] = [];
    current.user$.subscribe({ error: (e: unknown) => errors.push(e) });
    const failed = await firstValueFrom(current.view$.pipe(filter((s) => s.kind === 'failed')));
    expect(failed).toEqual({ kind: 'failed' });
    expect(await firstValueFrom(current.user$)).toBeNull();
    expect(await firstValueFrom(current.isVip$)).toBe(false);
    expect(errors).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    // The log names the failure but never carries the token.
    expect(String(warn.mock.calls[0]?.[0])).toContain('user_data');
    expect(String(warn.mock.calls[0]?.[0])).not.toContain(u.access_token);
  });

  it('an answer about another user_id is refused at the border (logged, null), never shown as this user', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const me = await createTestUser(t);
    const other = await createTestUser(t, { vip_level: 5 });
    // A misrouted answer: the server's answer for `other`, delivered to `me`'s request.
    const { session, current } = app((path, body) =>
      path.endsWith('/user_data')
        ? body
            .split(`"user_id":${me.user_id}`)
            .join(`"user_id":${other.user_id}`)
            .split(`"userId":${me.user_id}`)
            .join(`"userId":${other.user_id}`)
        : body,
    );
    session.signIn(me);
    await firstValueFrom(current.view$.pipe(filter((s) => s.kind === 'failed')));
    expect(current.user).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('does not match the contract');
  });
});

describe('CurrentUser over a scripted account', () => {
  const setUp = (identity: AuthIdentity | null = anIdentity({ user_id: 42 })) => {
    const account = new ScriptedAccount();
    const session = new FakeSession(identity);
    const current = new CurrentUser(session, account.port);
    return { account, session, current };
  };

  it('opens nothing until someone subscribes; then asks once for all subscribers', async () => {
    const { account, current } = setUp();
    account.always('userData', aUserData({ login_info: aLoginInfo({ vip_level: 1 }) }));
    await flush();
    expect(account.callsOf('userData')).toHaveLength(0);
    expect(current.snapshot).toEqual({ kind: 'idle' });
    const vip = recorded(current.isVip$);
    const users = recorded(current.user$);
    expect(account.callsOf('userData')).toHaveLength(1);
    expect(vip).toEqual([false, true]);
    expect(users.at(-1)?.login_info.vip_level).toBe(1);
  });

  it('[R2.6-4] vip_level at normal (0) is not VIP', () => {
    const { account, current } = setUp();
    account.always('userData', aUserData({ login_info: aLoginInfo({ vip_level: 0 }) }));
    expect(recorded(current.isVip$)).toEqual([false]);
    expect(current.user?.login_info.vip_level).toBe(0);
  });

  it('a failed first read is logged and shows a guest; a reload that succeeds shows the user; a failed refresh keeps the data shown', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { account, current } = setUp();
    const data = aUserData({ login_info: aLoginInfo({ vip_level: 2 }) });
    account.answer('userData', { error: new Error('offline') }, { value: data }, { error: new Error('offline again') });
    const states = recorded<CurrentUserState>(current.view$);
    expect(states.map((s) => s.kind)).toEqual(['idle', 'loading', 'failed']);
    expect(warn).toHaveBeenCalledTimes(1);
    current.reload();
    expect(current.snapshot).toEqual({ kind: 'ready', user: data });
    current.reload();
    expect(current.snapshot).toEqual({ kind: 'ready', user: data });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(account.callsOf('userData')).toHaveLength(3);
  });

  it("a sign-in while the previous user's answer is on its way cancels it: that late answer is never shown", () => {
    const { account, session, current } = setUp(anIdentity({ user_id: 1 }));
    const late = new Subject<UserData>();
    const first = aUserData({
      auth_info: { user_id: 1, access_token: 'token-of-user-one-0123456789', agree_contract: 1 },
      login_info: aLoginInfo({ vip_level: 4 }),
    });
    const second = aUserData({
      auth_info: { user_id: 2, access_token: 'token-of-user-two-0123456789', agree_contract: 1 },
    });
    account.answer('userData', { observable: late }, { value: second });
    const users = recorded(current.user$);
    session.signIn(anIdentity({ user_id: 2, access_token: 'token-of-user-two-0123456789' }));
    late.next(first);
    expect(late.observed).toBe(false);
    expect(users).toEqual([null, second]);
  });

  it('dispose ends everything: no more requests on a sign-in', () => {
    const { account, session, current } = setUp(null);
    account.always('userData', aUserData());
    recorded(current.user$);
    current.dispose();
    session.signIn(anIdentity({ user_id: 7 }));
    expect(account.callsOf('userData')).toHaveLength(0);
  });
});
