import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { TOKENS, type ChatPage, type SupportChat } from '../../src/application';
import type { ChatMessage } from '../../src/domain';
import { aUserData, FakeRealtime, FakeSession, ScriptedAccount, ScriptedSupport } from '../../src/testing';
import { createTestContainer } from '../support/test-container';

const msg = (messageId: number, from: ChatMessage['from'], text: string): ChatMessage => ({
  messageId,
  from,
  text,
  createdAt: `2026-11-26T1${messageId % 10}:00:00+09:00`,
});

/** The support chat's own logic with scripted ports: merging pushes and pages, and a resend that stores once. */
describe('SupportChat', () => {
  function setup() {
    const support = new ScriptedSupport();
    const realtime = new FakeRealtime();
    const account = new ScriptedAccount();
    const container = createTestContainer(
      [TOKENS.SupportPort, support.port],
      [TOKENS.RealtimePort, realtime],
      [TOKENS.AccountPort, account.port],
      [TOKENS.SessionPort, new FakeSession({ user_id: 7, access_token: 't' })],
    );
    account.always('userData', aUserData());
    return { support, realtime, account, chat: container.get<SupportChat>(TOKENS.SupportChat) };
  }

  it('a reply pushed before the page arrives, and the same reply pushed twice, land once and in order', async () => {
    const { support, realtime, chat } = setup();
    const page = new Subject<ChatPage>();
    support.answer('chatPage', { observable: page });
    const started = chat.start();
    realtime.emit({ kind: 'user' }, { type: 'chat', message: msg(3, 'operator', '明日発送します。') });
    realtime.emit({ kind: 'user' }, { type: 'chat', message: msg(3, 'operator', '明日発送します。') });
    page.next({ messages: [msg(1, 'player', 'いつ届きますか？'), msg(2, 'operator', '確認します。')], hasMore: true });
    page.complete();
    await started;
    expect(chat.snapshot.messages.map((m) => m.messageId)).toEqual([1, 2, 3]);
    expect(chat.snapshot.status).toBe('ready');
    expect(chat.snapshot.hasMore).toBe(true);
    support.answer('chatPage', { value: { messages: [msg(0, 'player', 'こんにちは')], hasMore: false } });
    await chat.loadOlder();
    expect(support.callsOf('chatPage')).toEqual([[], [1]]);
    expect(chat.snapshot.messages.map((m) => m.messageId)).toEqual([0, 1, 2, 3]);
    chat.dispose();
  });

  it('a failed send is resent with the same client id (stored once); an edit gets a new one; an empty text is not sent', async () => {
    const { support, chat } = setup();
    support.always('chatPage', { messages: [], hasMore: false });
    await chat.start();
    expect(await chat.send('   ')).toBe(false);
    expect(chat.snapshot.fieldError).toBe('メッセージを入力してください。');
    support.answer(
      'sendChat',
      { error: Object.assign(new Error('offline'), { info: '通信できませんでした。' }) },
      { value: msg(5, 'player', '届きません') },
    );
    expect(await chat.send('届きません')).toBe(false);
    expect(chat.snapshot.error).toBe('通信できませんでした。');
    expect(await chat.send('届きません')).toBe(true);
    const [first, second] = support.callsOf('sendChat');
    expect(second![1]).toBe(first![1]);
    support.answer('sendChat', { value: msg(6, 'player', 'もう一度') });
    chat.edited();
    await chat.send('もう一度');
    expect(support.callsOf('sendChat')[2]![1]).not.toBe(first![1]);
    expect(chat.snapshot.messages.map((m) => m.messageId)).toEqual([5, 6]);
    chat.dispose();
  });
});
