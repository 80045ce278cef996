import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { STATION_KEY_MAX_OVERLAP_MINUTES, type StationKeyState } from '../../src/contract/operator.schema';
import type { Clock } from '../clock';
import { SERVER_MESSAGES } from '../messages';
import { isUniqueViolation, Refusal } from '../play/refusal';
import type { SqlExecutor, Store } from '../store/store';

/**
 * Station keys (issue 42, docs/security.md "Station keys"): what a station agent presents in its
 * hello. A key reads `onk_sk_<keyId>_<secret>`: the id names the row (it is not secret: the console
 * lists it and the welcome echoes it), the secret is 32 random bytes in base64url of which only the
 * SHA-256 is stored. The key itself is answered once, by `issue` or `rotate`, and never again.
 */

export const STATION_KEY_PREFIX = 'onk_sk_';
/** The key id's length and alphabet (no `_`, so the key splits without ambiguity). */
export const STATION_KEY_ID_PATTERN = /^[a-z0-9]{12}$/;
const KEY_PATTERN = /^onk_sk_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;
const KEY_ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const KEY_ID_LENGTH = 12;

/** How long a rotated key keeps working beside its successor, unless the operator says otherwise. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** The longest overlap a rotation may give (a week: long enough to reach every cabinet). */
export const MAX_ROTATION_OVERLAP_MS = STATION_KEY_MAX_OVERLAP_MINUTES * 60 * 1000;
/** last_used_at is written at most this often per key, so a reconnecting agent does not write per hello. */
export const LAST_USED_EVERY_MS = 60_000;

export type { StationKeyState };

/** One key as the operator API lists it: never its secret nor the secret's hash. */
export interface StationKeyEntry {
  readonly key_id: string;
  readonly name: string;
  readonly station_ids: readonly number[];
  readonly created_at: string;
  readonly created_by: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
  readonly last_used_at: string | null;
  readonly rotated_to: string | null;
  readonly state: StationKeyState;
}

/** What a valid key names: the agent may drive these stations and no other. */
export interface VerifiedStationKey {
  readonly keyId: string;
  readonly name: string;
  readonly stationIds: readonly number[];
}

/** A key just made: `key` is shown to the operator once and kept nowhere. */
export interface IssuedStationKey {
  readonly keyId: string;
  readonly key: string;
}

export interface StationKeyRevoked {
  readonly keyId: string;
  /** The operator's login. */
  readonly by: string;
}

interface KeyRow {
  key_id: string;
  name: string;
  station_ids: number[];
  created_at: Date;
  created_by: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  rotated_to: string | null;
}

const ENTRY_COLUMNS =
  'key_id, name, station_ids, created_at, created_by, expires_at, revoked_at, last_used_at, rotated_to';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** 12 characters of [a-z0-9], each uniform (bytes ≥ 252 are drawn again rather than biasing the first letters). */
function newKeyId(): string {
  let id = '';
  while (id.length < KEY_ID_LENGTH) {
    for (const byte of randomBytes(KEY_ID_LENGTH)) {
      if (byte < 252 && id.length < KEY_ID_LENGTH) id += KEY_ID_ALPHABET[byte % 36];
    }
  }
  return id;
}

function stateAt(row: Pick<KeyRow, 'expires_at' | 'revoked_at'>, now: Date): StationKeyState {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at) return row.expires_at > now ? 'rotating' : 'expired';
  return 'active';
}

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

/**
 * The server's station keys over the store, on the server's clock (expiries and last use are its
 * instants, so a test's manual clock drives the rotation's overlap).
 */
export class StationKeys {
  private readonly revokedListeners = new Set<(event: StationKeyRevoked) => void>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {}

  /**
   * Makes a key for `stationIds` (each must name a station: 404 in Japanese otherwise, nothing
   * stored). Resolves with the key, the only time it is ever given.
   */
  async issue(input: { name: string; stationIds: readonly number[]; by: string }): Promise<IssuedStationKey> {
    const stationIds = [...new Set(input.stationIds)].sort((a, b) => a - b);
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.insert(this.store, input.name.trim(), stationIds, input.by, true);
      } catch (error) {
        // A key id drawn twice (36^12 ids: not expected, but not a fault either).
        if (!isUniqueViolation(error) || attempt >= 2) throw error;
      }
    }
  }

  /**
   * The stations a presented key may drive, or null: not a key of this format, an unknown id, a
   * secret that does not match (compared in constant time), revoked, or past its rotation's end.
   * Never throws for any input; a store failure rejects (the caller cannot tell a bad key from it).
   */
  async verify(key: unknown): Promise<VerifiedStationKey | null> {
    if (typeof key !== 'string' || key.length > 200) return null;
    const match = KEY_PATTERN.exec(key);
    if (!match) return null;
    const [, keyId, secret] = match as unknown as [string, string, string];
    const [row] = await this.store.query<KeyRow & { secret_hash: Uint8Array }>(
      `SELECT ${ENTRY_COLUMNS}, secret_hash FROM station_keys WHERE key_id = $1`,
      [keyId],
    );
    if (!row) return null;
    const stored = Buffer.from(row.secret_hash);
    const presented = sha256(secret);
    if (stored.length !== presented.length || !timingSafeEqual(stored, presented)) return null;
    const now = this.clock.now();
    if (stateAt(row, now) === 'revoked' || stateAt(row, now) === 'expired') return null;
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= LAST_USED_EVERY_MS)
      await this.store.query(
        'UPDATE station_keys SET last_used_at = $2 WHERE key_id = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
        [keyId, now],
      );
    return { keyId, name: row.name, stationIds: row.station_ids.map(Number) };
  }

  /** Every key, newest first, with its state now; no secret and no hash. */
  async list(): Promise<StationKeyEntry[]> {
    const rows = await this.store.query<KeyRow>(
      `SELECT ${ENTRY_COLUMNS} FROM station_keys ORDER BY created_at DESC, key_id`,
    );
    const now = this.clock.now();
    return rows.map((row) => this.toEntry(row, now));
  }

  /** One key as listed, or null when there is none with that id. */
  async entry(keyId: string, db: SqlExecutor = this.store): Promise<StationKeyEntry | null> {
    if (!STATION_KEY_ID_PATTERN.test(keyId)) return null;
    const [row] = await db.query<KeyRow>(`SELECT ${ENTRY_COLUMNS} FROM station_keys WHERE key_id = $1`, [keyId]);
    return row ? this.toEntry(row, this.clock.now()) : null;
  }

  /**
   * A new key for the same stations; the old one keeps working until now + `overlapMs`, then not.
   * Refused 409 when the key is revoked or rotated already, 404 when there is none. Of two
   * rotations at once exactly one wins: the old row is locked (FOR UPDATE) and read again by the
   * second after the first commits, when it is rotated already.
   */
  async rotate(
    keyId: string,
    options: { by: string; overlapMs?: number },
  ): Promise<IssuedStationKey & { readonly replaces: string; readonly oldExpiresAt: string }> {
    const overlapMs = Math.min(Math.max(0, options.overlapMs ?? DEFAULT_ROTATION_OVERLAP_MS), MAX_ROTATION_OVERLAP_MS);
    return this.store.transaction(async (tx) => {
      const [old] = await tx.query<{ name: string; station_ids: number[] }>(
        `SELECT name, station_ids FROM station_keys
          WHERE key_id = $1 AND revoked_at IS NULL AND rotated_to IS NULL FOR UPDATE`,
        [keyId],
      );
      if (!old) throw await this.notRotatable(tx, keyId);
      const issued = await this.insert(tx, old.name, old.station_ids.map(Number), options.by, false);
      const oldExpiresAt = new Date(this.clock.now().getTime() + overlapMs);
      await tx.query('UPDATE station_keys SET expires_at = $2, rotated_to = $3 WHERE key_id = $1', [
        keyId,
        oldExpiresAt,
        issued.keyId,
      ]);
      return { ...issued, replaces: keyId, oldExpiresAt: oldExpiresAt.toISOString() };
    });
  }

  /**
   * Ends a key at once (404 when there is none; a revoked key stays as it was). The listeners of
   * `onRevoked` hear of it after the change is stored, so the gateway closes that key's connections.
   */
  async revoke(keyId: string, options: { by: string }): Promise<StationKeyEntry> {
    const [row] = await this.store.query<KeyRow>(
      `UPDATE station_keys SET revoked_at = $2 WHERE key_id = $1 AND revoked_at IS NULL RETURNING ${ENTRY_COLUMNS}`,
      [keyId, this.clock.now()],
    );
    if (!row) {
      const entry = await this.entry(keyId);
      if (!entry) throw new Refusal(404, 404, SERVER_MESSAGES.stationKeyNotFound);
      return entry;
    }
    for (const listener of this.revokedListeners) {
      try {
        listener({ keyId, by: options.by });
      } catch (error) {
        this.log('a station key revocation listener failed', error);
      }
    }
    return this.toEntry(row, this.clock.now());
  }

  /** Calls `listener` for each key revoked on this instance; answers the function that stops it. */
  onRevoked(listener: (event: StationKeyRevoked) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /**
   * Stores a new key. With `checkStations` the row goes in only when every id names a station (in
   * the same statement; an array carries no foreign key), else a Japanese 404 naming the missing ids.
   */
  private async insert(
    db: SqlExecutor,
    name: string,
    stationIds: readonly number[],
    by: string,
    checkStations: boolean,
  ): Promise<IssuedStationKey> {
    const keyId = newKeyId();
    const secret = randomBytes(32).toString('base64url');
    const rows = await db.query<{ key_id: string }>(
      `INSERT INTO station_keys (key_id, name, secret_hash, station_ids, created_at, created_by)
       SELECT $1, $2, decode($3, 'hex'), $4::int[], $5, $6
        WHERE NOT $7::boolean OR NOT EXISTS (
          SELECT 1 FROM unnest($4::int[]) AS wanted (id)
           WHERE NOT EXISTS (SELECT 1 FROM stations s WHERE s.station_id = wanted.id))
       RETURNING key_id`,
      // The hash travels as hex: a byte array made in another realm (a jsdom test's) is not one the embedded store takes.
      [keyId, name, sha256(secret).toString('hex'), stationIds, this.clock.now(), by, checkStations],
    );
    if (!rows[0]) {
      const known = await db.query<{ station_id: number }>(
        'SELECT station_id FROM stations WHERE station_id = ANY($1::int[])',
        [stationIds],
      );
      const found = new Set(known.map((r) => Number(r.station_id)));
      throw new Refusal(404, 404, SERVER_MESSAGES.stationKeyUnknownStations(stationIds.filter((id) => !found.has(id))));
    }
    return { keyId, key: `${STATION_KEY_PREFIX}${keyId}_${secret}` };
  }

  private async notRotatable(db: SqlExecutor, keyId: string): Promise<Refusal> {
    return (await this.entry(keyId, db))
      ? new Refusal(409, 409, SERVER_MESSAGES.stationKeyNotRotatable)
      : new Refusal(404, 404, SERVER_MESSAGES.stationKeyNotFound);
  }

  private toEntry(row: KeyRow, now: Date): StationKeyEntry {
    return {
      key_id: row.key_id,
      name: row.name,
      station_ids: row.station_ids.map(Number),
      created_at: row.created_at.toISOString(),
      created_by: row.created_by,
      expires_at: iso(row.expires_at),
      revoked_at: iso(row.revoked_at),
      last_used_at: iso(row.last_used_at),
      rotated_to: row.rotated_to,
      state: stateAt(row, now),
    };
  }
}
