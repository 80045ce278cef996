-- Operator accounts, their sessions and the audit log (issue 26, R10-9, docs/operator-console.md).
-- Accounts are created by the CLI (npm run operator -- add …); a session token is stored as its
-- SHA-256 only; every operator action writes one audit row (who, what, when, before/after).
CREATE TABLE IF NOT EXISTS operator_accounts (
  operator_id serial PRIMARY KEY,
  login text NOT NULL UNIQUE CHECK (login ~ '^[a-z0-9][a-z0-9._-]{2,31}$'),
  display_name text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 40),
  role text NOT NULL CHECK (role IN ('admin', 'floor', 'support')),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz
);

CREATE TABLE IF NOT EXISTS operator_sessions (
  token_hash bytea PRIMARY KEY,
  operator_id integer NOT NULL REFERENCES operator_accounts (operator_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS operator_sessions_operator_idx ON operator_sessions (operator_id);

CREATE TABLE IF NOT EXISTS operator_audit (
  audit_id bigserial PRIMARY KEY,
  -- null for the development token (ONKURE_OPERATOR_TOKEN, development and tests only).
  operator_id integer REFERENCES operator_accounts (operator_id) ON DELETE SET NULL,
  operator_login text NOT NULL,
  action text NOT NULL,
  target jsonb NOT NULL,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS operator_audit_at_idx ON operator_audit (at, audit_id);
