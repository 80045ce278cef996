import { expect, it } from 'vitest';
import { TOKENS, type ServiceSignal } from '../../src/application';
import { isAddressPresent } from '../../src/domain';
import { anAddress, forgedClient, latestCode, once, refusal } from './contract-helpers';
import type { ContractDriver } from './harness';

/** §7 /user/* settings and address calls, /movie/delete_token and the designed account calls (docs/api/user.md). */
export function accountContract(driver: () => ContractDriver): void {
  it('[R7-6][R3-18][R5-1] POST /user/set_hide_character and /user/set_volume send 1 or 0 and answer the stored flag', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    expect(await once(account.setHideCharacter(true))).toBe(1);
    expect(await once(account.setHideCharacter(false))).toBe(0);
    expect(await once(account.setVolume(false))).toBe(0);
    expect(await once(account.setVolume(true))).toBe(1);
  });

  it("[R7-6] POST /user/get_email answers '' and unverified for an account with no e-mail", async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    expect(await once(account.email())).toEqual({ email: '', verified: false });
  });

  it('[R7-6][R3-3][R3-4][R5-5] POST /user/get_address flattens the main address; account/address/register makes the first one main', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    const empty = await once(account.addressBook());
    expect(empty).toMatchObject({ address_bool: false, zip: '', birth: '', all_address: { id: 0, list: [] } });

    const saved = await once(
      account.registerAddress(anAddress({ zip: '1500041', tel: '09012345678', leadTimes: '午前中' })),
    );
    // The form's spelling on the way out [R3-3]; the service normalises the zip and the phone.
    expect(saved.address).toMatchObject({
      isMain: true,
      lastName: '山田',
      firstName: '花子',
      zip: '150-0041',
      tel: '09012345678',
      leadTimes: '午前中',
    });
    expect(saved.list).toEqual([saved.address]);

    const book = await once(account.addressBook());
    expect(book).toMatchObject({
      address_bool: true,
      last_name: '山田',
      first_name: '花子',
      zip: '150-0041',
      address1: '東京都',
      address2: '渋谷区神南1-2-3',
    });
    expect(book.all_address.id).toBe(saved.address.id);
    expect(book.all_address.list[0]).toMatchObject({
      id: saved.address.id,
      is_main: 1,
      first_name: '花子',
      last_name: '山田',
      lead_times: '午前中',
    });
    expect(isAddressPresent(book.all_address.list[0])).toBe(true);
  });

  it('[R7-6][R3-3] POST account/address/list, change and delete keep exactly one main address', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    const first = (await once(account.registerAddress(anAddress()))).address;
    const second = (await once(account.registerAddress(anAddress({ lastName: '佐藤', isMain: true })))).address;
    let list = await once(account.addresses());
    expect(list.map((a) => [a.id, a.isMain])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);

    const changed = await once(account.changeAddress({ ...first, address3: '202号室', isMain: true }));
    expect(changed.address).toMatchObject({ id: first.id, address3: '202号室', isMain: true });
    expect(changed.list.filter((a) => a.isMain).map((a) => a.id)).toEqual([first.id]);

    const demote = await refusal(account.changeAddress({ ...changed.address, isMain: false }), 409);
    expect(demote.info).toBe('メインの住所は、別の住所をメインにしてから変更してください。');

    list = await once(account.deleteAddress(first.id));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: second.id, isMain: true });
    list = await once(account.deleteAddress(second.id));
    expect(list).toEqual([]);
  });

  it("[R7-6] POST account/address/register refuses invalid input with the domain's Japanese message and stores nothing", async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    const zip = await refusal(account.registerAddress(anAddress({ zip: '12-345' })), 400);
    expect(zip.info).toMatch(/郵便番号/);
    const pref = await refusal(account.registerAddress(anAddress({ address1: 'トーキョー' })), 400);
    expect(pref.info).toMatch(/都道府県/);
    const slot = await refusal(account.registerAddress(anAddress({ leadTimes: '深夜' })), 400);
    expect(slot.info).toBe('お届け希望時間帯の値が正しくありません。');
    expect(await once(account.addresses())).toEqual([]);
  });

  it("[R7-6][R3-1] user B cannot read, change or delete user A's address (404), and a forged identity is refused (401)", async () => {
    const a = await driver().newUser();
    const b = await driver().newUser();
    const mine = (await once(a.client.get(TOKENS.AccountPort).registerAddress(anAddress()))).address;
    const other = b.client.get(TOKENS.AccountPort);
    expect(await once(other.addresses())).toEqual([]);
    expect((await once(other.addressBook())).all_address.list).toEqual([]);
    expect((await refusal(other.changeAddress({ ...mine, lastName: '泥棒' }), 404)).info).toBe(
      '住所が見つかりません。',
    );
    await refusal(other.deleteAddress(mine.id), 404);
    await refusal(forgedClient(driver(), a.identity.user_id).get(TOKENS.AccountPort).addresses(), 401);
    await refusal(forgedClient(driver(), a.identity.user_id).get(TOKENS.AccountPort).addressBook(), 401);
    expect(await once(a.client.get(TOKENS.AccountPort).addresses())).toEqual([mine]);
  });

  it('[R7-6] POST account/profile/get, profile/set and nickname/set; the birth date registers once', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    const blank = await once(account.profile());
    expect(blank.profile).toMatchObject({ sex: 0, birth: '', prefectures: '' });
    expect(blank.nickname).toMatchObject({ nickname: '', isNicknameUnregistered: true });
    const set = await once(account.setProfile({ sex: 2, birth: '1990-04-01', prefectures: '大阪府' }));
    expect(set.profile).toMatchObject({ sex: 2, birth: '1990-04-01', prefectures: '大阪府' });
    const named = await once(account.setNickname('  クレーン名人 '));
    expect(named.nickname).toMatchObject({ nickname: 'クレーン名人', isNicknameUnregistered: false });
    expect((await refusal(account.setProfile({ birth: '1991-01-01' }), 409)).info).toBe(
      '生年月日は一度登録すると変更できません。',
    );
    await refusal(account.setProfile({ birth: '2023-02-30' }), 400);
    await refusal(account.setNickname('あ'.repeat(17)), 400);
    expect((await once(account.addressBook())).birth).toBe('1990-04-01');
  });

  it('[R7-6] POST account/phone/send_code and phone/verify check the number with the SMS code', async () => {
    const { client } = await driver().newUser();
    const account = client.get(TOKENS.AccountPort);
    await refusal(account.sendPhoneCode('12345'), 400);
    await once(account.sendPhoneCode('090-1111-2222'));
    const code = await latestCode(client, 'sms');
    await refusal(account.verifyPhone(code === '999999' ? '888888' : '999999'), 400);
    expect(await once(account.verifyPhone(code))).toMatchObject({ tel: '09011112222' });
  });

  it('[R7-6][R1-2] POST account/present_code credits once per user: free TC or tickets; expired and unknown codes are refused', async () => {
    const { client } = await driver().newUser();
    const account = client.get(TOKENS.AccountPort);
    const tc = await once(account.redeemPresentCode('welcome500'));
    expect(tc.present).toEqual({ kind: 'tc_free', amount: 500 });
    expect(tc.tc).toEqual({ tc_all: 500, tc_free: 500, tc_toll: 0 });
    expect((await refusal(account.redeemPresentCode('WELCOME500'), 409)).info).toBe(
      'このプレゼントコードはすでに使用済みです。',
    );
    const ticket = await once(account.redeemPresentCode('TICKET3'));
    expect(ticket).toMatchObject({
      present: { kind: 'ticket', amount: 3 },
      ticket: { ticket_all: 3 },
      tc: { tc_all: 500 },
    });
    expect((await refusal(account.redeemPresentCode('EXPIRED100'), 409)).info).toBe(
      'このプレゼントコードは有効期間外です。',
    );
    await refusal(account.redeemPresentCode('NOSUCHCODE'), 404);
    await refusal(account.redeemPresentCode('no'), 400);
    // Another user may still redeem the same code.
    const other = (await driver().newUser()).client.get(TOKENS.AccountPort);
    expect((await once(other.redeemPresentCode('WELCOME500'))).tc.tc_free).toBe(500);
  });

  it('[R7-6][R3-16] POST account/invite answers invite_ticket, title, url and text with the same code each time', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    const info = await once(account.inviteInfo());
    expect(info.invite_ticket).toBe(3);
    expect(info.title).toBe('お友達招待キャンペーン');
    expect(info.url).toMatch(/\?invite=[A-Z0-9]{8}$/);
    expect(info.text).toContain(info.url);
    expect(await once(account.inviteInfo())).toEqual(info);
  });

  it('[R7-6] POST /user/agree, /user/user_additional, /user/read_info and /movie/delete_token answer their designed fields', async () => {
    const account = (await driver().newUser()).client.get(TOKENS.AccountPort);
    await expect(once(account.agreeToTerms())).resolves.toBeUndefined();
    expect(await once(account.setAdditional('tutorial_play', true))).toEqual({ tutorial_top: 0, tutorial_play: 1 });
    expect(await once(account.setAdditional('tutorial_top', true))).toEqual({ tutorial_top: 1, tutorial_play: 1 });
    await refusal(account.setAdditional('tutorial_none' as 'tutorial_top', true), 400);
    expect(await once(account.markRead('news'))).toEqual({
      news: 0,
      prize: 0,
      kuji: 0,
      order_made_prize: 0,
      digital: 0,
      direct: 0,
      message: 0,
    });
    expect(Object.values(await once(account.markRead())).every((v) => v === 0)).toBe(true);
    expect(await once(account.endMovieTokens())).toBe(0);
    // delete_token ends live-feed tokens only: the session still works.
    expect(await once(account.email())).toEqual({ email: '', verified: false });
  });

  it('[R7-6][R8-5] a suspended user is refused with invaliduser (9002) and the maintenance screen is signalled', async () => {
    const { identity, client } = await driver().newUser();
    const signals: ServiceSignal[] = [];
    const sub = client.get(TOKENS.ServiceSignalsPort).signals$.subscribe((s) => signals.push(s));
    await driver().fixtures.suspendUser(identity.user_id);
    const error = await refusal(client.get(TOKENS.AccountPort).setVolume(true), 9002);
    expect(error.info).toBe('このアカウントは現在ご利用いただけません。お問い合わせください。');
    sub.unsubscribe();
    expect(signals).toEqual([expect.objectContaining({ kind: 'maintenance', code: 'invaliduser', error_code: 9002 })]);
  });
}
