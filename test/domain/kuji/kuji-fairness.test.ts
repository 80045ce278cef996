import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  boxTickets,
  deriveTicketOrder,
  fairnessCommitment,
  sha256Hex,
  verifyKujiBox,
  type KujiRankStock,
} from '../../../src/domain';

const stock: KujiRankStock[] = [
  { rank: 'A賞', quantity: 1 },
  { rank: 'B賞', quantity: 2 },
  { rank: 'C賞', quantity: 5 },
  { rank: 'D賞', quantity: 12 },
];
const seed = 'a3'.repeat(32);

describe('SHA-256 in the domain', () => {
  it("matches the FIPS test vectors and Node's crypto for ASCII, Japanese, emoji and long texts", () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    for (const text of [
      'A賞・ラストワン賞',
      '🎯くじ',
      'x'.repeat(55),
      'x'.repeat(56),
      'x'.repeat(64),
      'ぬ'.repeat(1000),
      randomBytes(300).toString('base64'),
    ]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    }
  });
});

describe('kuji fairness (the box order a seed fixes)', () => {
  it("a box's tickets are its ranks repeated by quantity, in the box's order", () => {
    expect(
      boxTickets([
        { rank: 'A賞', quantity: 1 },
        { rank: 'B賞', quantity: 2 },
        { rank: 'C賞', quantity: 0 },
      ]),
    ).toEqual(['A賞', 'B賞', 'B賞']);
  });

  it('the same seed always gives the same order, a permutation of the tickets; another seed another order', () => {
    const tickets = boxTickets(stock);
    const order = deriveTicketOrder(seed, tickets);
    expect(deriveTicketOrder(seed, tickets)).toEqual(order);
    expect([...order].sort()).toEqual([...tickets].sort());
    expect(deriveTicketOrder('b4'.repeat(32), tickets)).not.toEqual(order);
  });

  it('every position is equally likely for a rank over many seeds (no favoured place)', () => {
    const tickets = boxTickets([
      { rank: 'A', quantity: 1 },
      { rank: 'x', quantity: 9 },
    ]);
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 3000; i += 1) counts[deriveTicketOrder(sha256Hex(`seed-${i}`), tickets).indexOf('A')]! += 1;
    // 300 expected at each place; a biased shuffle would leave some far off.
    for (const c of counts) {
      expect(c).toBeGreaterThan(220);
      expect(c).toBeLessThan(380);
    }
  });

  it('a finished box checks out: the seed re-derives the committed order and every draw', () => {
    const order = deriveTicketOrder(seed, boxTickets(stock));
    const commitment = fairnessCommitment(7, seed, order);
    const draws = order.map((rank, position) => ({ position, rank }));
    expect(verifyKujiBox({ boxId: 7, seed, commitment, stock, draws })).toEqual({ ok: true, order });
  });

  it('a wrong seed, a commitment of another box, a changed stock or a changed draw is caught', () => {
    const order = deriveTicketOrder(seed, boxTickets(stock));
    const commitment = fairnessCommitment(7, seed, order);
    const draws = order.map((rank, position) => ({ position, rank }));
    expect(verifyKujiBox({ boxId: 7, seed: 'b4'.repeat(32), commitment, stock, draws })).toEqual({
      ok: false,
      reason: 'commitment',
    });
    expect(verifyKujiBox({ boxId: 8, seed, commitment, stock, draws })).toEqual({ ok: false, reason: 'commitment' });
    expect(
      verifyKujiBox({
        boxId: 7,
        seed,
        commitment,
        stock: [...stock.slice(0, 3), { rank: 'D賞', quantity: 11 }],
        draws,
      }),
    ).toEqual({ ok: false, reason: 'commitment' });
    const lied = draws.map((d) => (d.position === 3 ? { ...d, rank: d.rank === 'A賞' ? 'D賞' : 'A賞' } : d));
    expect(verifyKujiBox({ boxId: 7, seed, commitment, stock, draws: lied })).toMatchObject({
      ok: false,
      reason: 'draw',
      position: 3,
    });
    expect(verifyKujiBox({ boxId: 7, seed: 'not-a-seed', commitment, stock, draws })).toEqual({
      ok: false,
      reason: 'badSeed',
    });
  });
});

describe('the kuji windows from settings', () => {
  it('[R4.4-5] defaults to 60 and 180 seconds, takes whole seconds from 5 to 3600, and refuses anything else', async () => {
    const { kujiTimeLimitsFrom, KUJI_TIME_LIMITS } = await import('../../../src/domain');
    expect(kujiTimeLimitsFrom(undefined, undefined)).toEqual(KUJI_TIME_LIMITS);
    expect(KUJI_TIME_LIMITS).toEqual({ firstReserved: 60, confirm: 180 });
    expect(kujiTimeLimitsFrom('12', '')).toEqual({ firstReserved: 12, confirm: 180 });
    for (const bad of ['4', '3601', '1.5', 'ten', '-60']) expect(kujiTimeLimitsFrom(bad, undefined)).toBeNull();
  });
});
