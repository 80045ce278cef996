-- Each station's camera picture settings (spec §3 station info: luminance per camera, percent).
ALTER TABLE stations ADD COLUMN brightness_front smallint NOT NULL DEFAULT 100 CHECK (brightness_front BETWEEN 0 AND 300);
ALTER TABLE stations ADD COLUMN saturate_front smallint NOT NULL DEFAULT 100 CHECK (saturate_front BETWEEN 0 AND 300);
ALTER TABLE stations ADD COLUMN contrast_front smallint NOT NULL DEFAULT 100 CHECK (contrast_front BETWEEN 0 AND 300);
ALTER TABLE stations ADD COLUMN brightness_side smallint NOT NULL DEFAULT 100 CHECK (brightness_side BETWEEN 0 AND 300);
ALTER TABLE stations ADD COLUMN saturate_side smallint NOT NULL DEFAULT 100 CHECK (saturate_side BETWEEN 0 AND 300);
ALTER TABLE stations ADD COLUMN contrast_side smallint NOT NULL DEFAULT 100 CHECK (contrast_side BETWEEN 0 AND 300);
