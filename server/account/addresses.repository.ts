import { MAX_ADDRESSES, type AddressRecord } from '../../src/contract';
import type { SqlExecutor, Store } from '../store/store';
import { AccountRefusal } from './account-errors';

/** A validated, normalised address as the contract's addressInputSchema outputs it. */
export interface AddressValues {
  readonly is_main?: 0 | 1 | undefined;
  readonly first_name: string;
  readonly last_name: string;
  readonly zip: string;
  readonly address1: string;
  readonly address2: string;
  readonly address3: string;
  readonly tel: string;
  readonly email: string | null;
}

interface AddressRow extends Omit<AddressRecord, 'is_main'> { is_main: boolean }

const COLUMNS = 'id, is_main, first_name, last_name, zip, address1, address2, address3, tel, email, lead_times';
const toRecord = (r: AddressRow): AddressRecord => ({ ...r, is_main: r.is_main ? 1 : 0 });

/**
 * Estimated delivery days (the address record's lead_times) from the postal code: Hokkaido
 * (040-099) 4 days, Okinawa (900-909) 5 days, elsewhere 3 days.
 */
export function leadTimesFor(zip: string): number {
  const head = Number(zip.slice(0, 3));
  if (head >= 900 && head <= 909) return 5;
  if (head >= 40 && head <= 99) return 4;
  return 3;
}

/**
 * Shipping addresses. Every query is scoped by user_id, so an id of another user's address is
 * simply "not found". A user with addresses has exactly one main address: the first one becomes
 * main, registering or changing with is_main 1 moves the flag, deleting the main one promotes the
 * oldest remaining address.
 */
export class AddressesRepository {
  constructor(private readonly db: Store, private readonly now: () => Date) {}

  async list(userId: number, q: SqlExecutor = this.db): Promise<AddressRecord[]> {
    const rows = await q.query<AddressRow>(`SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 ORDER BY is_main DESC, id`, [userId]);
    return rows.map(toRecord);
  }

  async main(userId: number, q: SqlExecutor = this.db): Promise<AddressRecord | null> {
    const [row] = await q.query<AddressRow>(`SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 AND is_main`, [userId]);
    return row ? toRecord(row) : null;
  }

  async register(userId: number, a: AddressValues): Promise<AddressRecord> {
    return this.db.transaction(async (q) => {
      await this.lockUser(q, userId);
      const [{ n } = { n: 0 }] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM addresses WHERE user_id = $1', [userId]);
      if (n >= MAX_ADDRESSES) throw new AccountRefusal(409, `住所は${MAX_ADDRESSES}件まで登録できます。`);
      const makeMain = n === 0 || a.is_main === 1;
      if (makeMain) await q.query('UPDATE addresses SET is_main = false WHERE user_id = $1 AND is_main', [userId]);
      const now = this.now().toISOString();
      const [row] = await q.query<AddressRow>(
        `INSERT INTO addresses (user_id, is_main, first_name, last_name, zip, address1, address2, address3, tel, email, lead_times, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING ${COLUMNS}`,
        [userId, makeMain, a.first_name, a.last_name, a.zip, a.address1, a.address2, a.address3, a.tel, a.email, leadTimesFor(a.zip), now]);
      return toRecord(row!);
    });
  }

  /** Changes one of the user's addresses. is_main 1 makes it main; is_main 0 on the main one is refused. */
  async change(userId: number, id: number, a: AddressValues): Promise<AddressRecord> {
    return this.db.transaction(async (q) => {
      await this.lockUser(q, userId);
      const [current] = await q.query<AddressRow>(`SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 AND id = $2`, [userId, id]);
      if (!current) throw new AccountRefusal(404, '住所が見つかりません。');
      if (current.is_main && a.is_main === 0) throw new AccountRefusal(409, 'メインの住所は、別の住所をメインにしてから変更してください。');
      const makeMain = current.is_main || a.is_main === 1;
      if (makeMain && !current.is_main) await q.query('UPDATE addresses SET is_main = false WHERE user_id = $1 AND is_main', [userId]);
      const [row] = await q.query<AddressRow>(
        `UPDATE addresses SET is_main = $3, first_name = $4, last_name = $5, zip = $6, address1 = $7, address2 = $8, address3 = $9, tel = $10,
                email = $11, lead_times = $12, updated_at = $13
          WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [userId, id, makeMain, a.first_name, a.last_name, a.zip, a.address1, a.address2, a.address3, a.tel, a.email, leadTimesFor(a.zip), this.now().toISOString()]);
      return toRecord(row!);
    });
  }

  /** Deletes one of the user's addresses; the oldest remaining one becomes main if needed. */
  async remove(userId: number, id: number): Promise<AddressRecord[]> {
    return this.db.transaction(async (q) => {
      await this.lockUser(q, userId);
      const [gone] = await q.query<{ is_main: boolean }>('DELETE FROM addresses WHERE user_id = $1 AND id = $2 RETURNING is_main', [userId, id]);
      if (!gone) throw new AccountRefusal(404, '住所が見つかりません。');
      if (gone.is_main) {
        await q.query('UPDATE addresses SET is_main = true WHERE id = (SELECT id FROM addresses WHERE user_id = $1 ORDER BY id LIMIT 1)', [userId]);
      }
      return this.list(userId, q);
    });
  }

  /** Serialises address changes of one user (the one-main rule spans rows). */
  private async lockUser(q: SqlExecutor, userId: number): Promise<void> {
    await q.query('SELECT user_id FROM users WHERE user_id = $1 FOR UPDATE', [userId]);
  }
}

/** R5-5: an address counts as present only when zip, address1, address2 and address3 are all set. */
export const isAddressPresent = (a: Pick<AddressRecord, 'zip' | 'address1' | 'address2' | 'address3'> | null): boolean =>
  !!a && [a.zip, a.address1, a.address2, a.address3].every((v) => typeof v === 'string' && v.trim() !== '');
