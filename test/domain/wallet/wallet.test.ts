import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arrangePayMethods,
  bonusLabel,
  BUILD_TARGETS,
  isActionAllowed,
  isPayMethodRank,
  isTcInfoConsistent,
  labelProduct,
  payMethodOrder,
  purchaseModalEntry,
  tcInfo,
  type AddedPayMethods,
  type PayMethod,
  type PayMethodKind,
} from '../../../src/domain';

describe('TC balance', () => {
  it('[R1-2] tc_all = tc_free + tc_toll, for every balance', () => {
    fc.assert(
      fc.property(fc.nat(1e12), fc.nat(1e12), (free, toll) => {
        const info = tcInfo(free, toll);
        expect(info).toEqual({ tc_all: free + toll, tc_free: free, tc_toll: toll });
        expect(isTcInfoConsistent(info)).toBe(true);
      }),
    );
    expect(isTcInfoConsistent({ tc_all: 10, tc_free: 3, tc_toll: 6 })).toBe(false);
    expect(() => tcInfo(-1, 0)).toThrow(RangeError);
  });
});

describe('products', () => {
  it('[R9-7] the bonus label is the free TC with thousands separators plus ボーナス', () => {
    expect(bonusLabel(1000)).toBe('1,000ボーナス');
    expect(bonusLabel(25)).toBe('25ボーナス');
    expect(bonusLabel(1234567)).toBe('1,234,567ボーナス');
    expect(bonusLabel(0)).toBeNull();
    expect(labelProduct({ toll_tc: 10000, free_tc: 1500 })).toEqual({
      toll_tc: 10000,
      free_tc: 1500,
      bonusLabel: '1,500ボーナス',
    });
  });
});

describe('pay methods', () => {
  const m = (kind: PayMethodKind, name: string = kind, rank_id: 0 | 1 | 2 | 3 = 0): PayMethod => ({
    kind,
    name,
    info: '',
    imgUrl: `/img/${name}.png`,
    rank_id,
  });
  const added: AddedPayMethods = {
    accountPayment: { name: '口座払い', info: '銀行口座から', imgUrl: '/img/account.png' },
    deviceWallet: { name: 'ウォレット', info: '', imgUrl: '/img/wallet.png' },
    deviceWalletAvailable: true,
  };
  const server = [
    m('e_money', 'em1'),
    m('carrier_billing', 'cb1'),
    m('credit_card_3ds'),
    m('mobile_payment', 'mp1'),
    m('credit_card'),
    m('mobile_payment', 'mp2'),
  ];

  it('[R9-6] ranks run 0 to 3', () => {
    expect([0, 1, 2, 3].every(isPayMethodRank)).toBe(true);
    expect([-1, 4, 1.5, '1', null].some(isPayMethodRank)).toBe(false);
  });

  it('[R9-6] web order: credit card, 3-D Secure, device wallet, account-based, then mobile, carrier, e-money; added ones get rank 3', () => {
    const list = arrangePayMethods(server, 'web', added);
    expect(list.map((p) => p.name)).toEqual([
      'credit_card',
      'credit_card_3ds',
      'ウォレット',
      '口座払い',
      'mp1',
      'mp2',
      'cb1',
      'em1',
    ]);
    expect(
      list.filter((p) => p.kind === 'device_wallet' || p.kind === 'account_payment').map((p) => p.rank_id),
    ).toEqual([3, 3]);
  });

  it('[R9-6] ios omits the device wallet and still adds the account-based payment', () => {
    expect(payMethodOrder('ios')).not.toContain('device_wallet');
    const list = arrangePayMethods([...server, m('device_wallet')], 'ios', added);
    expect(list.map((p) => p.kind)).toEqual([
      'credit_card',
      'credit_card_3ds',
      'account_payment',
      'mobile_payment',
      'mobile_payment',
      'carrier_billing',
      'e_money',
    ]);
  });

  it('[R9-6] the device wallet is added on web only when available, and never twice', () => {
    const without = arrangePayMethods(server, 'web', { ...added, deviceWalletAvailable: false });
    expect(without.some((p) => p.kind === 'device_wallet')).toBe(false);
    const listed = arrangePayMethods([m('device_wallet', 'server-wallet', 1), ...server], 'web', added);
    expect(listed.filter((p) => p.kind === 'device_wallet')).toEqual([m('device_wallet', 'server-wallet', 1)]);
  });

  it('[R6-7] the account-based payment and the device wallet never show on android, yahoo or mobage', () => {
    for (const target of ['android', 'yahoo', 'mobage'] as const) {
      const kinds = arrangePayMethods([...server, m('device_wallet'), m('account_payment')], target, added).map(
        (p) => p.kind,
      );
      expect(kinds).not.toContain('device_wallet');
      expect(kinds).not.toContain('account_payment');
      expect(kinds).toEqual([
        'credit_card',
        'credit_card_3ds',
        'mobile_payment',
        'mobile_payment',
        'carrier_billing',
        'e_money',
      ]);
    }
  });

  it('[R9-6] arranging keeps every allowed method once, in the target order, for any server list', () => {
    const kind = fc.constantFrom<PayMethodKind>(
      'credit_card',
      'credit_card_3ds',
      'mobile_payment',
      'carrier_billing',
      'e_money',
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(kind, fc.string())), fc.constantFrom(...BUILD_TARGETS), (raw, target) => {
        const list = arrangePayMethods(
          raw.map(([k, n]) => m(k, n)),
          target,
          added,
        );
        const order = payMethodOrder(target);
        const ranks = list.map((p) => order.indexOf(p.kind));
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        expect(list.filter((p) => p.kind !== 'account_payment' && p.kind !== 'device_wallet')).toHaveLength(raw.length);
      }),
    );
  });
});

describe('purchase modal and guests', () => {
  it('[R2.5-4] opening the purchase modal requires login', () => {
    expect(purchaseModalEntry({ signedIn: false, registeredBirth: true })).toBe('login');
    expect(purchaseModalEntry({ signedIn: false, registeredBirth: false })).toBe('login');
  });

  it('[R2.5-5] with no birth date registered, the age step comes first', () => {
    expect(purchaseModalEntry({ signedIn: true, registeredBirth: false })).toBe('age');
    expect(purchaseModalEntry({ signedIn: true, registeredBirth: true })).toBe('top');
  });

  it('[R6-1] guests cannot buy, cannot see the virtual crane and cannot play practice stations', () => {
    for (const action of ['buy', 'seeVirtualCrane', 'playPractice'] as const) {
      expect(isActionAllowed(action, false)).toBe(false);
      expect(isActionAllowed(action, true)).toBe(true);
    }
    expect(isActionAllowed('viewStation', false)).toBe(true);
  });
});
