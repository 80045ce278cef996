import { afterAll, beforeAll, describe } from 'vitest';
import { OPERATOR_AUTH_HEADER } from '../../src/contract/operator.schema';
import { itFuzzesPosts, type FuzzPost } from '../support/fuzz';
import { startTestServer, type TestServer } from '../support/test-server';
import { createTestUser, type TestUser } from '../support/users';
import { as, expectOk, post } from './user-helpers';

const TOKEN = 'operator-token-for-support-fuzz-0123';
let t: TestServer;
let u: TestUser;
let contactId = 0;

beforeAll(async () => {
  t = await startTestServer({ inMemory: true, env: { ONKURE_OPERATOR_TOKEN: TOKEN } });
  u = await createTestUser(t, { nickname: 'ふぁずうさぎ' });
  contactId = (
    expectOk(await post(t, 'support/contact', as(u, { contact: { category: 'other', text: '準備の問い合わせ' } })))
      .contact as { contact_id: number }
  ).contact_id;
  expectOk(
    await post(t, 'support/chat/send', as(u, { chat: { text: '準備のメッセージ', client_id: 'fuzz-setup-0001' } })),
  );
});
afterAll(async () => t?.close());

describe('fuzzing the support calls: 200 random and mutated bodies each, no 5xx, refusals change nothing', () => {
  const player: FuzzPost[] = [
    ['support/contact', () => as(u, { contact: { category: 'play', text: 'アームが弱いです', attach_play: 1 } })],
    ['support/chat/list', () => as(u, { chat: { before_id: 1_000 } })],
    ['support/chat/send', () => as(u, { chat: { text: 'こんにちは', client_id: 'fuzz-chat-0001' } })],
  ];
  itFuzzesPosts(() => t, player, { minRefused: 50 });

  const operator: FuzzPost[] = [
    ['operator/support/contacts', () => ({ status: 'open', limit: 10 })],
    ['operator/support/contact_close', () => ({ contact_id: contactId })],
    ['operator/support/threads', () => ({ limit: 10 })],
    ['operator/support/thread', () => ({ user_id: u.user_id, before_id: 1_000 })],
    ['operator/support/reply', () => ({ user_id: u.user_id, text: 'お返事です', client_id: 'fuzz-reply-0001' })],
  ];
  itFuzzesPosts(() => t, operator, {
    minRefused: 20,
    headers: { [OPERATOR_AUTH_HEADER]: `Bearer ${TOKEN}` },
    nameSuffix: ' (operator)',
  });
});
