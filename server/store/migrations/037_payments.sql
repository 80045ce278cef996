-- Money in (issue 22): settlements wait for the payment provider, a simulated provider keeps its
-- own payments, players set their own monthly spending limit.

-- A settlement is 'pending' until the provider's signed callback completes it (or says it failed or
-- was cancelled), or until it expires unpaid ('cancelled'). docs/payments.md.
ALTER TABLE product_settlements ADD COLUMN expires_at timestamptz;
UPDATE product_settlements SET expires_at = created_at WHERE expires_at IS NULL;
ALTER TABLE product_settlements ALTER COLUMN expires_at SET NOT NULL;
ALTER TABLE product_settlements ADD COLUMN provider_payment_id text UNIQUE;
-- Where the player pays (the provider's hosted page), while the settlement is pending.
ALTER TABLE product_settlements ADD COLUMN payment_url text;
-- Why a settlement failed or was cancelled: the provider's code (card_declined, processing_error,
-- authentication_failed, cancelled) or ours (expired).
ALTER TABLE product_settlements ADD COLUMN failure_code text CHECK (failure_code IS NULL OR failure_code ~ '^[a-z_]{1,40}$');
-- When the analytics events of a completed settlement were handed to a client (once per settlement).
ALTER TABLE product_settlements ADD COLUMN reported_at timestamptz;
CREATE INDEX product_settlements_pending_idx ON product_settlements (expires_at) WHERE status = 'pending';

-- The simulated payment provider's own records (standing for a real provider's system).
CREATE TABLE provider_payments (
  payment_id text PRIMARY KEY CHECK (payment_id ~ '^[0-9a-f-]{36}$'),
  merchant_reference text NOT NULL UNIQUE,
  method text NOT NULL CHECK (method IN ('card', 'card_3ds', 'account', 'wallet')),
  amount integer NOT NULL CHECK (amount > 0),
  status text NOT NULL CHECK (status IN ('open', 'challenge', 'paid', 'declined', 'failed', 'cancelled', 'expired')),
  failure_code text,
  challenge_attempts integer NOT NULL DEFAULT 0,
  card_last4 text CHECK (card_last4 IS NULL OR card_last4 ~ '^[0-9]{4}$'),
  return_url text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  finished_at timestamptz
);

-- The provider's callbacks still to deliver (a failed delivery is tried again later).
CREATE TABLE provider_callbacks (
  event_id text PRIMARY KEY,
  payment_id text NOT NULL REFERENCES provider_payments (payment_id),
  body text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  delivered_at timestamptz,
  last_status integer
);
CREATE INDEX provider_callbacks_due_idx ON provider_callbacks (next_attempt_at) WHERE delivered_at IS NULL;

-- A player's own monthly spending limit (yen, Asia/Tokyo calendar month). A raise or a removal
-- waits 24 hours in pending_*; a lowering replaces limit_yen at once.
CREATE TABLE spending_limits (
  user_id integer PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  limit_yen integer CHECK (limit_yen IS NULL OR limit_yen > 0),
  pending_limit_yen integer CHECK (pending_limit_yen IS NULL OR pending_limit_yen > 0),
  pending_effective_at timestamptz,
  updated_at timestamptz NOT NULL
);
