-- Account data around the users table: settings, flags, addresses, verification codes, the dev
-- outbox and media (stream) tokens. Owned by the user/account/wallet module (docs/api/user.md).
ALTER TABLE users ADD COLUMN debug_name text UNIQUE;
ALTER TABLE users ADD COLUMN agreed_at timestamptz;
ALTER TABLE users ADD COLUMN notice_get smallint NOT NULL DEFAULT 1 CHECK (notice_get IN (0, 1));

-- Whitelisted per-user flags (tutorial_top, tutorial_play); the server checks the key list.
CREATE TABLE user_additionals (
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  additional_key text NOT NULL CHECK (char_length(additional_key) BETWEEN 1 AND 32),
  additional_value smallint NOT NULL CHECK (additional_value IN (0, 1)),
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, additional_key)
);

-- Unread flags (spec 3 "unread flags"): one row per user and kind while something is unread.
CREATE TABLE user_unread (
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('news', 'prize', 'kuji', 'order_made', 'digital', 'direct', 'message')),
  marked_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);

-- Shipping addresses (spec 3 "Address record"). At most one main address per user.
CREATE TABLE addresses (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  is_main boolean NOT NULL DEFAULT false,
  first_name text NOT NULL CHECK (char_length(first_name) BETWEEN 1 AND 30),
  last_name text NOT NULL CHECK (char_length(last_name) BETWEEN 1 AND 30),
  zip text NOT NULL CHECK (zip ~ '^[0-9]{3}-[0-9]{4}$'),
  address1 text NOT NULL CHECK (char_length(address1) BETWEEN 1 AND 100),
  address2 text NOT NULL CHECK (char_length(address2) BETWEEN 1 AND 100),
  address3 text NOT NULL CHECK (char_length(address3) BETWEEN 1 AND 100),
  tel text NOT NULL CHECK (tel ~ '^0[0-9]{9,10}$'),
  email text CHECK (email IS NULL OR char_length(email) <= 254),
  lead_times smallint NOT NULL CHECK (lead_times BETWEEN 1 AND 30),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX addresses_user_idx ON addresses (user_id, id);
CREATE UNIQUE INDEX addresses_one_main_idx ON addresses (user_id) WHERE is_main;

-- One-time codes for e-mail and phone verification. Only the SHA-256 of the code is kept.
CREATE TABLE verification_codes (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('email', 'tel')),
  target text NOT NULL CHECK (char_length(target) BETWEEN 1 AND 254),
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX verification_codes_user_idx ON verification_codes (user_id, purpose, created_at);

-- Development outbox: e-mails and SMS the reference server "sends". A dev-only call reads it.
CREATE TABLE dev_outbox (
  message_id serial PRIMARY KEY,
  user_id integer REFERENCES users (user_id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX dev_outbox_user_idx ON dev_outbox (user_id, message_id);

-- Media (live stream) viewing tokens; POST /movie/delete_token revokes the caller's live ones.
CREATE TABLE media_tokens (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  station_id integer,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX media_tokens_user_idx ON media_tokens (user_id);

-- Invite codes, created on a user's first look at the invite screen.
CREATE TABLE invite_codes (
  user_id integer PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE CHECK (code ~ '^[A-Z0-9]{8}$'),
  created_at timestamptz NOT NULL
);
