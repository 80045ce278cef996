-- TC and tickets as ledgers. Every change is a row in tc_ledger / ticket_ledger; the wallets row
-- is the per-user lock (SELECT ... FOR UPDATE) and a cached balance updated in the same transaction.
CREATE TABLE wallets (
  user_id integer PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  tc_free integer NOT NULL DEFAULT 0 CHECK (tc_free >= 0),
  tc_toll integer NOT NULL DEFAULT 0 CHECK (tc_toll >= 0),
  ticket integer NOT NULL DEFAULT 0 CHECK (ticket >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tc_ledger (
  entry_id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('free', 'toll')),
  delta integer NOT NULL CHECK (delta <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL CHECK (reason ~ '^[a-z_]{1,32}$'),
  reference text CHECK (reference IS NULL OR char_length(reference) <= 200),
  idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, idempotency_key, kind)
);
CREATE INDEX tc_ledger_user_idx ON tc_ledger (user_id, entry_id);

CREATE TABLE ticket_ledger (
  entry_id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  delta integer NOT NULL CHECK (delta <> 0),
  balance_after integer NOT NULL CHECK (balance_after >= 0),
  reason text NOT NULL CHECK (reason ~ '^[a-z_]{1,32}$'),
  reference text CHECK (reference IS NULL OR char_length(reference) <= 200),
  idempotency_key text NOT NULL CHECK (char_length(idempotency_key) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, idempotency_key)
);
CREATE INDEX ticket_ledger_user_idx ON ticket_ledger (user_id, entry_id);

-- TC products (spec 3 "Products"): price in yen, toll_tc bought, free_tc as bonus.
CREATE TABLE tc_products (
  product_id integer PRIMARY KEY,
  product_name text NOT NULL,
  price integer NOT NULL CHECK (price > 0),
  toll_tc integer NOT NULL CHECK (toll_tc > 0),
  free_tc integer NOT NULL DEFAULT 0 CHECK (free_tc >= 0),
  bonus_ticket integer NOT NULL DEFAULT 0 CHECK (bonus_ticket >= 0),
  is_sale boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0
);

INSERT INTO tc_products (product_id, product_name, price, toll_tc, free_tc, bonus_ticket, is_sale, sort) VALUES
  (1, '500TC', 500, 500, 0, 0, false, 1),
  (2, '1,000TC', 1000, 1000, 50, 0, false, 2),
  (3, '3,000TC', 3000, 3000, 300, 0, false, 3),
  (4, '5,000TC', 5000, 5000, 750, 1, false, 4),
  (5, '10,000TC', 10000, 10000, 2000, 2, true, 5),
  (6, '30,000TC', 30000, 30000, 7500, 5, false, 6),
  (7, '50,000TC', 50000, 50000, 15000, 10, false, 7);

-- A purchase. The reference server has no payment provider: a settlement is created and completed
-- in the same transaction that credits the TC (see docs/api/user.md).
CREATE TABLE product_settlements (
  product_settlement_id text PRIMARY KEY CHECK (product_settlement_id ~ '^[0-9a-f-]{36}$'),
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  product_id integer NOT NULL REFERENCES tc_products (product_id),
  pay_method text NOT NULL,
  price integer NOT NULL CHECK (price > 0),
  toll_tc integer NOT NULL,
  free_tc integer NOT NULL,
  bonus_ticket integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed', 'cancelled')),
  request_id text CHECK (request_id IS NULL OR char_length(request_id) BETWEEN 8 AND 64),
  created_at timestamptz NOT NULL,
  completed_at timestamptz,
  UNIQUE (user_id, request_id)
);
CREATE INDEX product_settlements_user_idx ON product_settlements (user_id, created_at);

-- Present codes: each user may redeem a code once; it credits free TC or tickets via the ledgers.
CREATE TABLE present_codes (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{4,20}$'),
  kind text NOT NULL CHECK (kind IN ('tc_free', 'ticket')),
  amount integer NOT NULL CHECK (amount > 0),
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL
);

CREATE TABLE present_code_redemptions (
  code text NOT NULL REFERENCES present_codes (code),
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  redeemed_at timestamptz NOT NULL,
  PRIMARY KEY (code, user_id)
);

INSERT INTO present_codes (code, kind, amount, starts_at, ends_at) VALUES
  ('WELCOME500', 'tc_free', 500, '2024-01-01T00:00:00+09:00', '2099-12-31T23:59:59+09:00'),
  ('TICKET3', 'ticket', 3, '2024-01-01T00:00:00+09:00', '2099-12-31T23:59:59+09:00'),
  ('EXPIRED100', 'tc_free', 100, '2020-01-01T00:00:00+09:00', '2020-12-31T23:59:59+09:00');
