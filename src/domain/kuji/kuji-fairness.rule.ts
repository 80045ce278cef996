import { sha256Hex } from './sha256';

/**
 * Provable fairness of a kuji box. When a box opens, the service draws a secret seed, fixes the
 * order of the box's tickets from it (`deriveTicketOrder`) and publishes only the commitment: the
 * SHA-256 of the version, the box, the seed and the order. Each draw takes the next tickets in that
 * order. When the box ends, the service publishes the seed; anyone can then re-derive the order from
 * the seed and the box's stock, check that it hashes to the commitment published at the start, and
 * check every draw against its position (`verifyKujiBox`).
 *
 * The seed is inside the commitment on purpose: a box of few tickets has few possible orders, and a
 * hash of the order alone could be matched by trying them all while the box is still on sale.
 */
export const KUJI_FAIRNESS_VERSION = 'onkure-kuji-fairness-v1';

/** A seed: 32 random bytes as 64 lower-case hex characters. */
export const KUJI_SEED_PATTERN = /^[0-9a-f]{64}$/;

/** One rank of a box's stock when it opened, in the box's display order. */
export interface KujiRankStock {
  readonly rank: string;
  readonly quantity: number;
}

/** The box's tickets in canonical order: each rank repeated by its quantity, ranks as listed. */
export function boxTickets(stock: readonly KujiRankStock[]): string[] {
  return stock.flatMap((s) => Array.from({ length: Math.max(0, Math.floor(s.quantity)) }, () => s.rank));
}

/** 32-bit words from a seed: SHA-256 of `seed:counter` for counter 0, 1, 2, … (8 words each). */
class SeedWords {
  private buffer: number[] = [];
  private counter = 0;

  constructor(private readonly seed: string) {}

  next(): number {
    if (this.buffer.length === 0) {
      const hex = sha256Hex(`${this.seed}:${this.counter}`);
      this.counter += 1;
      for (let i = 0; i < 64; i += 8) this.buffer.push(Number.parseInt(hex.slice(i, i + 8), 16));
    }
    return this.buffer.shift()!;
  }
}

/** A uniform integer in [0, n) from the words (rejection sampling, so no index is favoured). */
function below(words: SeedWords, n: number): number {
  const limit = Math.floor(0x100000000 / n) * n;
  for (;;) {
    const x = words.next();
    if (x < limit) return x % n;
  }
}

/** The order of `tickets` the seed fixes: a Fisher–Yates shuffle driven by SHA-256 of the seed. */
export function deriveTicketOrder(seed: string, tickets: readonly string[]): string[] {
  const order = [...tickets];
  const words = new SeedWords(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = below(words, i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** The commitment published when the box opens. */
export function fairnessCommitment(boxId: number, seed: string, order: readonly string[]): string {
  return sha256Hex(JSON.stringify([KUJI_FAIRNESS_VERSION, boxId, seed, order]));
}

/** One ticket drawn: its 0-based position in the box's order and the rank the player got. */
export interface KujiDrawnTicket {
  readonly position: number;
  readonly rank: string;
}

export type KujiVerification =
  | { readonly ok: true; readonly order: readonly string[] }
  | { readonly ok: false; readonly reason: 'badSeed' | 'commitment' }
  | {
      readonly ok: false;
      readonly reason: 'draw';
      readonly position: number;
      readonly expected: string;
      readonly got: string;
    };

/**
 * Checks a finished box: the seed re-derives an order that hashes to the commitment, and every
 * draw got the rank at its position.
 */
export function verifyKujiBox(input: {
  readonly boxId: number;
  readonly seed: string;
  readonly commitment: string;
  readonly stock: readonly KujiRankStock[];
  readonly draws: readonly KujiDrawnTicket[];
}): KujiVerification {
  if (!KUJI_SEED_PATTERN.test(input.seed)) return { ok: false, reason: 'badSeed' };
  const order = deriveTicketOrder(input.seed, boxTickets(input.stock));
  if (fairnessCommitment(input.boxId, input.seed, order) !== input.commitment)
    return { ok: false, reason: 'commitment' };
  for (const d of input.draws) {
    const expected = order[d.position];
    if (expected !== d.rank)
      return { ok: false, reason: 'draw', position: d.position, expected: expected ?? '', got: d.rank };
  }
  return { ok: true, order };
}
