import { MAX_ADDRESSES, type AddressInput } from '../../src/contract';
import { formatZip, validateAddressForm, type AddressRecord } from '../../src/domain';
import type { SqlExecutor, Store } from '../store/store';
import { AccountRefusal } from './account-errors';
import { lockUser } from '../store/user-lock';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';

/** A checked, normalised address ready to store (zip as 123-4567, tel as digits, email or null). */
export type AddressValues = Omit<AddressRecord, 'id' | 'is_main' | 'email'> & {
  readonly is_main?: AddressRecord['is_main'] | undefined;
  readonly email: string | null;
};

/**
 * Checks an address with the domain's validateAddressForm (the same rule and Japanese messages as
 * the client form) and normalises it; throws AccountRefusal(400) naming the first bad field.
 */
export function checkAddress(input: Omit<AddressInput, 'id'>): AddressValues {
  const result = validateAddressForm({
    id: 0,
    isMain: input.is_main === 1,
    lastName: input.last_name,
    firstName: input.first_name,
    zip: input.zip,
    address1: input.address1,
    address2: input.address2,
    address3: input.address3,
    tel: input.tel,
    email: input.email ?? '',
    leadTimes: input.lead_times ?? '',
  });
  const first = Object.values(result.errors)[0];
  if (!result.valid) throw new AccountRefusal(400, first ?? SERVER_MESSAGES.addressInvalid);
  const f = result.normalized;
  return {
    is_main: input.is_main,
    first_name: f.firstName,
    last_name: f.lastName,
    zip: formatZip(f.zip),
    address1: f.address1,
    address2: f.address2,
    address3: f.address3,
    tel: f.tel,
    email: f.email === '' ? null : f.email,
    lead_times: input.lead_times ?? '',
  };
}

interface AddressRow extends Omit<AddressRecord, 'is_main' | 'email'> {
  is_main: boolean;
  email: string | null;
}

const COLUMNS = 'id, is_main, first_name, last_name, zip, address1, address2, address3, tel, email, lead_times';
const toRecord = (r: AddressRow): AddressRecord => ({ ...r, is_main: r.is_main ? 1 : 0, email: r.email ?? '' });

/**
 * Shipping addresses. Every query is scoped by user_id, so an id of another user's address is
 * simply "not found". A user with addresses has exactly one main address: the first one becomes
 * main, registering or changing with is_main 1 moves the flag, deleting the main one promotes the
 * oldest remaining address.
 */
export class AddressesRepository {
  constructor(
    private readonly db: Store,
    private readonly clock: Clock,
  ) {}

  async list(userId: number, q: SqlExecutor = this.db): Promise<AddressRecord[]> {
    const rows = await q.query<AddressRow>(
      `SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 ORDER BY is_main DESC, id`,
      [userId],
    );
    return rows.map(toRecord);
  }

  async main(userId: number, q: SqlExecutor = this.db): Promise<AddressRecord | null> {
    const [row] = await q.query<AddressRow>(`SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 AND is_main`, [
      userId,
    ]);
    return row ? toRecord(row) : null;
  }

  async register(userId: number, a: AddressValues): Promise<AddressRecord> {
    return this.db.transaction(async (q) => {
      await lockUser(q, userId);
      const [{ n } = { n: 0 }] = await q.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM addresses WHERE user_id = $1',
        [userId],
      );
      if (n >= MAX_ADDRESSES) throw new AccountRefusal(409, SERVER_MESSAGES.addressLimit(MAX_ADDRESSES));
      const makeMain = n === 0 || a.is_main === 1;
      if (makeMain) await q.query('UPDATE addresses SET is_main = false WHERE user_id = $1 AND is_main', [userId]);
      const now = this.clock.now().toISOString();
      const [row] = await q.query<AddressRow>(
        `INSERT INTO addresses (user_id, is_main, first_name, last_name, zip, address1, address2, address3, tel, email, lead_times, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING ${COLUMNS}`,
        [
          userId,
          makeMain,
          a.first_name,
          a.last_name,
          a.zip,
          a.address1,
          a.address2,
          a.address3,
          a.tel,
          a.email,
          a.lead_times,
          now,
        ],
      );
      return toRecord(row!);
    });
  }

  /** Changes one of the user's addresses. is_main 1 makes it main; is_main 0 on the main one is refused. */
  async change(userId: number, id: number, a: AddressValues): Promise<AddressRecord> {
    return this.db.transaction(async (q) => {
      await lockUser(q, userId);
      const [current] = await q.query<AddressRow>(`SELECT ${COLUMNS} FROM addresses WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      if (!current) throw new AccountRefusal(404, SERVER_MESSAGES.addressNotFound);
      if (current.is_main && a.is_main === 0) throw new AccountRefusal(409, SERVER_MESSAGES.mainAddressChange);
      const makeMain = current.is_main || a.is_main === 1;
      if (makeMain && !current.is_main)
        await q.query('UPDATE addresses SET is_main = false WHERE user_id = $1 AND is_main', [userId]);
      const [row] = await q.query<AddressRow>(
        `UPDATE addresses SET is_main = $3, first_name = $4, last_name = $5, zip = $6, address1 = $7, address2 = $8, address3 = $9, tel = $10,
                email = $11, lead_times = $12, updated_at = $13
          WHERE user_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [
          userId,
          id,
          makeMain,
          a.first_name,
          a.last_name,
          a.zip,
          a.address1,
          a.address2,
          a.address3,
          a.tel,
          a.email,
          a.lead_times,
          this.clock.now().toISOString(),
        ],
      );
      return toRecord(row!);
    });
  }

  /** Deletes one of the user's addresses; the oldest remaining one becomes main if needed. */
  async remove(userId: number, id: number): Promise<AddressRecord[]> {
    return this.db.transaction(async (q) => {
      await lockUser(q, userId);
      const [gone] = await q.query<{ is_main: boolean }>(
        'DELETE FROM addresses WHERE user_id = $1 AND id = $2 RETURNING is_main',
        [userId, id],
      );
      if (!gone) throw new AccountRefusal(404, SERVER_MESSAGES.addressNotFound);
      if (gone.is_main) {
        await q.query(
          'UPDATE addresses SET is_main = true WHERE id = (SELECT id FROM addresses WHERE user_id = $1 ORDER BY id LIMIT 1)',
          [userId],
        );
      }
      return this.list(userId, q);
    });
  }
}
