-- Account and support (issue 24): password reset codes, account deletion [R10-7], the contact form
-- and the support chat. docs/api/user.md ("Account deletion"), docs/support.md.

-- A deleted account: the row stays (ledger rows, play logs and prizes name its user_id) with its
-- personal data erased; every token is revoked and nothing signs in as it again.
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- Password reset codes are one-time codes like the e-mail and phone ones (purpose 'password').
ALTER TABLE verification_codes DROP CONSTRAINT verification_codes_purpose_check;
ALTER TABLE verification_codes ADD CONSTRAINT verification_codes_purpose_check CHECK (purpose IN ('email', 'tel', 'password'));

-- Contact-form messages. plays: the player's last plays when they attached them (JSON array), else null.
-- Deleting the account blanks text and plays; the row (category, times) stays for the operators' counts.
CREATE TABLE support_contacts (
  contact_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  category text NOT NULL CHECK (category IN ('play', 'prize', 'delivery', 'payment', 'account', 'other')),
  text text NOT NULL CHECK (char_length(text) <= 2000),
  plays jsonb,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  created_at timestamptz NOT NULL,
  closed_at timestamptz
);
CREATE INDEX support_contacts_status_idx ON support_contacts (status, contact_id);
CREATE INDEX support_contacts_user_idx ON support_contacts (user_id, created_at);

-- The support chat: one thread per player, messages by the player or an operator. client_id is the
-- sender's idempotency key: a resent message is stored once.
CREATE TABLE support_messages (
  message_id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  author text NOT NULL CHECK (author IN ('player', 'operator')),
  text text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
  client_id text NOT NULL CHECK (client_id ~ '^[A-Za-z0-9_-]{8,64}$'),
  created_at timestamptz NOT NULL,
  UNIQUE (user_id, author, client_id)
);
CREATE INDEX support_messages_user_idx ON support_messages (user_id, message_id);
