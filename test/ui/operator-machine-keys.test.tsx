/** @vitest-environment jsdom */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  OperatorCallFailed,
  type FloorFeedEvent,
  type IssuedStationKeyView,
  type OperatorApiPort,
  type OperatorFloorFeedPort,
  type OperatorIdentity,
  type StationKeyView,
} from '../../src/application/operator';
import { OPERATOR_ROLE_RIGHTS, type OperatorRole } from '../../src/domain';
import { SessionStorageOperatorToken } from '../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { createOperatorContainer } from '../../src/main/operator-container';
import { OperatorConsoleApp } from '../../src/ui/operator/operator-app';
import { parseStationIds } from '../../src/ui/operator/machine-keys-screen';

/**
 * 機械の接続キー in the operator console (issue 42), rendered in jsdom over the real container with
 * a scripted operator API (the server's side is test/server/station-keys.test.ts): issue a key
 * shown once with a copy button, rotate with an overlap, revoke after a confirmation; hidden from a
 * floor operator.
 */
const noFeed: OperatorFloorFeedPort = { watch: () => new Subject<FloorFeedEvent>() };
const AT = '2026-12-01T01:00:00.000Z';

afterEach(cleanup);

function aKey(overrides: Partial<StationKeyView> = {}): StationKeyView {
  return {
    key_id: 'abcdefgh0001',
    name: '3・4号機コントローラ',
    station_ids: [3, 4],
    created_at: AT,
    created_by: 'keys.admin',
    expires_at: null,
    revoked_at: null,
    last_used_at: null,
    rotated_to: null,
    state: 'active',
    ...overrides,
  };
}
const keyText = (id: string) => `onk_sk_${id}_${'S'.repeat(43)}`;

/**
 * The operator API as the test scripts it: the list it answers, and the answer of each change (an
 * issued key, or a refusal). Calls are recorded; nothing of the server's rules is copied here.
 */
class ScriptedKeysApi {
  list: StationKeyView[] = [];
  readonly calls: unknown[][] = [];
  issueAnswer: IssuedStationKeyView | OperatorCallFailed | null = null;
  rotateAnswer: { issued: IssuedStationKeyView; old: StationKeyView } | null = null;
  revokeAnswer: StationKeyView | null = null;

  constructor(private readonly role: OperatorRole) {}

  port(): OperatorApiPort {
    const identity: OperatorIdentity = {
      login: `keys.${this.role}`,
      display_name: '鍵山',
      role: this.role,
      rights: OPERATOR_ROLE_RIGHTS[this.role],
    };
    const api: Partial<OperatorApiPort> = {
      me: async () => identity,
      logout: async () => undefined,
      stationKeys: async () => this.list,
      issueStationKey: async (name, stationIds) => {
        this.calls.push(['issue', name, stationIds]);
        const answer = this.issueAnswer;
        if (!answer) throw new Error('no scripted answer');
        if (answer instanceof OperatorCallFailed) throw answer;
        this.list = [answer.entry, ...this.list];
        return answer;
      },
      rotateStationKey: async (keyId, overlapMinutes) => {
        this.calls.push(['rotate', keyId, overlapMinutes]);
        const { issued, old } = this.rotateAnswer!;
        this.list = [issued.entry, ...this.list.map((k) => (k.key_id === keyId ? old : k))];
        return issued;
      },
      revokeStationKey: async (keyId) => {
        this.calls.push(['revoke', keyId]);
        this.list = this.list.map((k) => (k.key_id === keyId ? this.revokeAnswer! : k));
        return this.revokeAnswer!;
      },
    };
    return api as OperatorApiPort;
  }
}

/** The console signed in (a kept session token) at `path`, over the scripted API. */
function openConsole(api: ScriptedKeysApi, path = '/operator/machines') {
  window.history.pushState({}, '', path);
  const tokens = new SessionStorageOperatorToken(null);
  tokens.write('scripted-session-token');
  const container = createOperatorContainer(
    { apiBase: '/api', realtimeUrl: '' },
    { tokens, feed: noFeed, api: api.port() },
  );
  const user = userEvent.setup();
  render(<OperatorConsoleApp container={container} />);
  return user;
}

/** Answers the console's confirmation dialog with its confirm button. */
async function confirmWith(user: ReturnType<typeof userEvent.setup>, label: string | RegExp) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name: label }));
}

const rowOf = async (keyId: string) =>
  (await screen.findAllByTestId('op-machine-key')).find((row) => row.textContent?.includes(keyId))!;
const stateOf = async (keyId: string) => within(await rowOf(keyId)).getByTestId('op-machine-key-state').textContent;

describe('機械の接続キー', () => {
  it('[R11-1] an admin issues a key for stations 3 and 4: shown once with a warning and a copy button, then forgotten', async () => {
    const api = new ScriptedKeysApi('admin');
    const key = keyText('abcdefgh0001');
    api.issueAnswer = { key, entry: aKey() };
    const user = openConsole(api);
    expect(await screen.findByRole('heading', { level: 1, name: '機械の接続キー' })).toBeTruthy();
    await user.type(screen.getByLabelText(/キーの名前/), '3・4号機コントローラ');
    await user.type(screen.getByLabelText(/ステーションID/), '3, 4');
    await user.click(screen.getByRole('button', { name: 'キーを発行' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('#3、#4');
    await confirmWith(user, 'キーを発行');
    expect(api.calls).toEqual([['issue', '3・4号機コントローラ', [3, 4]]]);

    const panel = await screen.findByTestId('op-new-key');
    expect(within(panel).getByRole('alert').textContent).toContain('このキーは今しか表示されません');
    expect((within(panel).getByTestId('op-new-key-value') as HTMLInputElement).value).toBe(key);
    await user.click(within(panel).getByRole('button', { name: 'コピー' }));
    expect(await navigator.clipboard.readText()).toBe(key);
    expect(within(panel).getByText('コピーしました。')).toBeTruthy();

    const row = await rowOf('abcdefgh0001');
    expect(row.textContent).toContain('#3、#4');
    expect(row.textContent).toContain('keys.admin');
    expect(row.textContent).toContain('未使用');
    expect(await stateOf('abcdefgh0001')).toBe('有効');

    // Closing the panel asks first; then the key is nowhere on the page.
    await user.click(within(panel).getByRole('button', { name: '保存したので閉じる' }));
    await confirmWith(user, '保存したので閉じる');
    await waitFor(() => expect(screen.queryByTestId('op-new-key')).toBeNull());
    expect(document.body.innerHTML).not.toContain(key);
  });

  it('rotation with the chosen overlap shows the successor once and the old key 切替中 until its end; revocation asks first, names the key and marks it 失効', async () => {
    const api = new ScriptedKeysApi('admin');
    api.list = [aKey({ key_id: 'oldkey000005', name: '5号機', station_ids: [5] })];
    const successor = aKey({ key_id: 'newkey000005', name: '5号機', station_ids: [5] });
    const until = '2026-12-01T02:00:00.000Z';
    api.rotateAnswer = {
      issued: { key: keyText('newkey000005'), entry: successor },
      old: { ...api.list[0]!, state: 'rotating', expires_at: until, rotated_to: 'newkey000005' },
    };
    const user = openConsole(api);
    await screen.findByTestId('op-machine-key');
    await user.selectOptions(screen.getByLabelText('切り替えの猶予'), '1時間');
    await user.click(within(await rowOf('oldkey000005')).getByRole('button', { name: '「5号機」のキーを切り替え' }));
    expect((await screen.findByRole('dialog')).textContent).toContain('1時間後に使えなくなります');
    await confirmWith(user, '切り替え');
    expect(api.calls).toEqual([['rotate', 'oldkey000005', 60]]);
    const panel = await screen.findByTestId('op-new-key');
    expect((within(panel).getByTestId('op-new-key-value') as HTMLInputElement).value).toBe(keyText('newkey000005'));
    await waitFor(async () => expect(await stateOf('oldkey000005')).toBe(`切替中（〜${'2026/12/01 11:00:00'}）`));
    expect((await rowOf('oldkey000005')).textContent).toContain('後継キー: newkey000005');
    expect(await stateOf('newkey000005')).toBe('有効');
    // A rotating key cannot be rotated again, only revoked.
    expect(within(await rowOf('oldkey000005')).queryByRole('button', { name: /切り替え/ })).toBeNull();

    api.revokeAnswer = { ...api.rotateAnswer.old, state: 'revoked', revoked_at: AT };
    await user.click(within(await rowOf('oldkey000005')).getByRole('button', { name: '「5号機」のキーを失効' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('「5号機」（oldkey000005）を失効させます');
    expect(dialog.textContent).toContain('すぐに切断され');
    // Cancelling changes nothing.
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(api.calls).toHaveLength(1);
    await user.click(within(await rowOf('oldkey000005')).getByRole('button', { name: '「5号機」のキーを失効' }));
    await confirmWith(user, '失効');
    expect(api.calls.at(-1)).toEqual(['revoke', 'oldkey000005']);
    expect((await screen.findByTestId('op-outcome')).textContent).toContain('接続キーを失効させました。');
    await waitFor(async () => expect(await stateOf('oldkey000005')).toBe('失効'));
    expect(within(await rowOf('oldkey000005')).queryAllByRole('button')).toHaveLength(0);
  });

  it('station ids that are not numbers are refused on the page; the server’s Japanese refusal is shown', async () => {
    const api = new ScriptedKeysApi('admin');
    const refusal = 'ステーションが見つかりません（ID: 999999）。';
    api.issueAnswer = new OperatorCallFailed('refused', 404, 404, refusal, 'operator/station_key_issue');
    const user = openConsole(api);
    await user.type(await screen.findByLabelText(/キーの名前/), 'まちがい');
    await user.type(screen.getByLabelText(/ステーションID/), '3, abc');
    await user.click(screen.getByRole('button', { name: 'キーを発行' }));
    expect((await screen.findByText(/半角数字のカンマ区切り/)).getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls).toEqual([]);
    await user.clear(screen.getByLabelText(/ステーションID/));
    await user.type(screen.getByLabelText(/ステーションID/), '999999');
    await user.click(screen.getByRole('button', { name: 'キーを発行' }));
    await confirmWith(user, 'キーを発行');
    expect((await screen.findByTestId('op-outcome')).textContent).toContain(refusal);
    expect(screen.queryByTestId('op-new-key')).toBeNull();
  });

  it('a floor operator has no 機械の接続キー in the menu, and the page tells them they may not use it', async () => {
    const api = new ScriptedKeysApi('floor');
    openConsole(api);
    expect(await screen.findByTestId('op-not-allowed')).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'コンソールのメニュー' });
    expect(within(nav).queryByText('機械の接続キー')).toBeNull();
    await act(async () => undefined);
    expect(api.calls).toEqual([]);
  });

  it('parses station ids the way an operator types them', () => {
    expect(parseStationIds('3, 4、5 ，6  7')).toEqual([3, 4, 5, 6, 7]);
    expect(parseStationIds('3,3')).toEqual([3]);
    for (const bad of ['', ' , ', '0', '-1', '1.5', '３', 'abc', '1e3', '1234567890'])
      expect(parseStationIds(bad)).toBeNull();
  });
});
