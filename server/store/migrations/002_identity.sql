-- Users and their access tokens. Tokens are stored only as SHA-256 hashes.
CREATE TABLE users (
  user_id serial PRIMARY KEY,
  email text UNIQUE,
  password_hash text,
  email_verified_at timestamptz,
  nickname text,
  sex smallint CHECK (sex IN (0, 1, 2, 9)),
  birth date,
  prefecture smallint CHECK (prefecture BETWEEN 1 AND 47),
  tel text,
  tel_verified_at timestamptz,
  -- 1 normal, 2 suspended, 3 staff (ignores maintenance pushes, spec 4.1)
  status smallint NOT NULL DEFAULT 1,
  vip_level smallint NOT NULL DEFAULT 0,
  sound smallint NOT NULL DEFAULT 1 CHECK (sound IN (0, 1)),
  hide_character smallint NOT NULL DEFAULT 0 CHECK (hide_character IN (0, 1)),
  agree_contract smallint NOT NULL DEFAULT 0 CHECK (agree_contract IN (0, 1)),
  is_debug boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE access_tokens (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX access_tokens_user_idx ON access_tokens (user_id);
