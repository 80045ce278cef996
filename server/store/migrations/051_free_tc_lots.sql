-- Free TC in lots that expire [R11-7] (docs/fair-play.md "Free TC that expires").
-- Each credit of free TC makes a lot with its end; a spend takes the earliest-ending live lots
-- first (tc_lot_moves ties each free ledger row to the lots it moved), a refund gives back what
-- its spend took, and the expiry writes one ledger row per lot, once (its key 'expire:lot:<id>').
-- For every user: wallets.tc_free = sum(remaining) of their lots, and each lot's remaining =
-- carried_over + sum(delta) of its moves.
CREATE TABLE tc_free_lots (
  lot_id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  -- What the lot was credited with (its first move), or what it carried over.
  amount integer NOT NULL CHECK (amount > 0),
  remaining integer NOT NULL CHECK (remaining >= 0 AND remaining <= amount),
  -- NULL: free TC credited before lots existed; it never expires.
  expires_at timestamptz,
  -- Free TC held when this migration ran (the lot has no credit move).
  carried_over integer NOT NULL DEFAULT 0 CHECK (carried_over >= 0),
  reason text NOT NULL CHECK (reason ~ '^[a-z_]{1,32}$'),
  created_at timestamptz NOT NULL,
  -- The nearest end notice given (7, then 1 days before); NULL before the first.
  notice_days smallint CHECK (notice_days IS NULL OR notice_days > 0),
  -- Set once, by the expiry (which also writes its ledger row in the same transaction).
  expired_at timestamptz
);
CREATE INDEX tc_free_lots_user_idx ON tc_free_lots (user_id, expires_at, lot_id) WHERE remaining > 0;
CREATE INDEX tc_free_lots_due_idx ON tc_free_lots (expires_at) WHERE expired_at IS NULL AND expires_at IS NOT NULL;

CREATE TABLE tc_lot_moves (
  entry_id bigint NOT NULL REFERENCES tc_ledger (entry_id) ON DELETE CASCADE,
  lot_id bigint NOT NULL REFERENCES tc_free_lots (lot_id) ON DELETE CASCADE,
  delta integer NOT NULL CHECK (delta <> 0),
  PRIMARY KEY (entry_id, lot_id)
);
CREATE INDEX tc_lot_moves_lot_idx ON tc_lot_moves (lot_id);

-- What players hold today stays theirs without an end: one carried-over lot each.
INSERT INTO tc_free_lots (user_id, amount, remaining, expires_at, carried_over, reason, created_at)
  SELECT user_id, tc_free, tc_free, NULL, tc_free, 'carried_over', now() FROM wallets WHERE tc_free > 0;
