/** @vitest-environment jsdom */
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Subject } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  OPERATOR_TOKENS,
  type FloorFeedEvent,
  type OperatorFloorFeedPort,
  type OperatorSession,
} from '../../src/application/operator';
import { fromJstParts } from '../../src/domain';
import { SessionStorageOperatorToken } from '../../src/infrastructure/operator/session-storage-operator-token.adapter';
import { createOperatorContainer } from '../../src/main/operator-container';
import { OperatorConsoleApp } from '../../src/ui/operator/operator-app';
import { injectFetch } from '../support/inject-fetch';
import { ManualServerClock } from '../support/manual-server-clock';
import { useNodeUint8Array } from '../support/node-uint8array';
import { buyTc } from '../support/payments';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser } from '../support/users';

/**
 * お金の照合 (issue 46) in jsdom over the real container and the reference server: an admin reads
 * a day's money side by side, a mismatch made in the store shows as such once the day is reconciled
 * again, and a floor account has no such section.
 */
useNodeUint8Array();

const noFeed: OperatorFloorFeedPort = { watch: () => new Subject<FloorFeedEvent>() };
// Monday 2026-11-30 10:00 JST: "yesterday" is the 29th.
const clock = new ManualServerClock(new Date(fromJstParts(2026, 11, 30, 10)));
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, clock });
  await t.server.services().operators.add('moneyadmin', '照合 管理者', 'admin', 'money-admin-password');
  await t.server.services().operators.add('moneyfloor', '照合 フロア', 'floor', 'money-floor-password');
}, 120_000);
afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});
afterAll(async () => t?.close());

async function openConsole(login: string, password: string, path: string) {
  const container = createOperatorContainer(
    { apiBase: t.apiBase, fetch: injectFetch(t.server.app), realtimeUrl: '' },
    { tokens: new SessionStorageOperatorToken(null), feed: noFeed },
  );
  const session = container.get<OperatorSession>(OPERATOR_TOKENS.OperatorSession);
  expect(await session.signIn(login, password)).toBe(true);
  window.history.pushState({}, '', path);
  render(<OperatorConsoleApp container={container} />);
  return userEvent.setup();
}

describe('お金の照合 (issue 46)', () => {
  it('an admin sees the day side by side, then a credit lost in the store as a mismatch once reconciled again', async () => {
    // A purchase today (the 30th), whose paid-TC credit the store then loses.
    const u = await createTestUser(t, { birth: '1990-04-01' });
    const sold = await buyTc(t, u, 2);
    const [product] = await t.server
      .store()
      .query<{ price: number; toll_tc: number }>('SELECT price, toll_tc FROM tc_products WHERE product_id = 2');
    const yen = product!.price.toLocaleString('ja-JP');
    const tc = product!.toll_tc.toLocaleString('ja-JP');
    const user = await openConsole('moneyadmin', 'money-admin-password', '/operator/money');
    await screen.findByRole('heading', { level: 1, name: 'お金の照合' });
    // Yesterday was never reconciled here: it says so.
    expect(await screen.findByText(/この日はまだ照合していません/)).toBeTruthy();

    const day = screen.getByLabelText('日付');
    await user.clear(day);
    await user.type(day, '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'いま照合し直す' }));
    const sources = await screen.findByTestId('op-money-sources');
    expect(within(sources).getByRole('caption').textContent).toContain('2026-11-30 のお金');
    expect(within(sources).getByRole('row', { name: /決済の完了/ }).textContent).toBe(
      `決済の完了（件・円） / 決済代行の入金（件・円）1件・${yen}円1件・${yen}円`,
    );
    expect(await screen.findByTestId('op-money-clear')).toBeTruthy();

    await t.server
      .store()
      .query("DELETE FROM tc_ledger WHERE idempotency_key = $1 AND kind = 'toll'", [
        `settlement:${sold.product_settlement_id}`,
      ]);
    await user.click(screen.getByRole('button', { name: 'いま照合し直す' }));
    const table = await screen.findByTestId('op-money-mismatches');
    expect(within(table).getByRole('caption').textContent).toBe('不一致 1件');
    const row = within(table).getAllByRole('row')[1]!;
    expect(row.getAttribute('data-kind')).toBe('settlement_not_credited');
    expect(row.textContent).toContain(sold.product_settlement_id);
    expect(row.textContent).toContain(`${tc}TC0TC`);
    // The side-by-side marks the paid TC that differs, and the runs list has the day.
    const toll = within(screen.getByTestId('op-money-sources')).getByRole('row', { name: /有償TC/ });
    expect(toll.querySelector('[data-differ="1"]')?.textContent).toBe('0');
    expect(screen.getByRole('button', { name: '2026-11-30: 不一致 1件' })).toBeTruthy();
  });

  it('a floor account has no money section, and the server refuses it the call', async () => {
    await openConsole('moneyfloor', 'money-floor-password', '/operator/floor');
    const nav = await screen.findByRole('navigation', { name: 'コンソールのメニュー' });
    expect(within(nav).queryByRole('link', { name: 'お金の照合' })).toBeNull();
    const login = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/login',
      payload: { login: 'moneyfloor', password: 'money-floor-password' },
    });
    const token = login.json<{ token: string }>().token;
    const refused = await t.server.app.inject({
      method: 'POST',
      url: '/api/operator/reconciliation',
      payload: {},
      headers: { 'x-operator-authorization': `Bearer ${token}` },
    });
    expect(refused.statusCode).toBe(403);
  });
});
