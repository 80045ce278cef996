-- Aligns the account tables with the domain entities (src/domain/account, src/domain/address):
-- lead_times is the preferred delivery time slot ('' = any time), sex 3 is "other / no answer",
-- and the unread kind for order-made prizes is order_made_prize.
ALTER TABLE addresses DROP CONSTRAINT addresses_lead_times_check;
ALTER TABLE addresses ALTER COLUMN lead_times TYPE text USING '';
ALTER TABLE addresses ALTER COLUMN lead_times SET DEFAULT '';
ALTER TABLE addresses ADD CONSTRAINT addresses_lead_times_check CHECK (char_length(lead_times) <= 20);

ALTER TABLE users DROP CONSTRAINT users_sex_check;
UPDATE users SET sex = 3 WHERE sex = 9;
ALTER TABLE users ADD CONSTRAINT users_sex_check CHECK (sex IN (0, 1, 2, 3));

ALTER TABLE user_unread DROP CONSTRAINT user_unread_kind_check;
UPDATE user_unread SET kind = 'order_made_prize' WHERE kind = 'order_made';
ALTER TABLE user_unread ADD CONSTRAINT user_unread_kind_check CHECK (kind IN ('news', 'prize', 'kuji', 'order_made_prize', 'digital', 'direct', 'message'));
