import { DOMAIN_MESSAGES } from '../messages';
import { formatThousands } from '../text/number-format';
import type { PrizeShape } from './crane-machine';
import { STAFF_ASSIST_DEFAULT_MISSES } from './staff-assist.rule';

/**
 * A station's settings as players are told of them (docs/fair-play.md) [R11-6]: the arm strength,
 * the price of a play and the prize on the machine (its name and shape; a new prize lays a new
 * field). An operator's change to them made while a player is in a run of plays waits until the run
 * ends; every change is published with its time, what changed (before → after) and why.
 */

/** Why an operator changed a station's settings: chosen from this list, shown to players in Japanese. */
export const SETTINGS_CHANGE_REASONS = [
  'adjustment',
  'prize_change',
  'restock',
  'repair',
  'campaign',
  'assist',
  'other',
] as const;
export type SettingsChangeReason = (typeof SETTINGS_CHANGE_REASONS)[number];

export const SETTINGS_CHANGE_REASON_LABELS: Readonly<Record<SettingsChangeReason, string>> =
  DOMAIN_MESSAGES.settingsReasons;

/** The settings a change can touch. */
export interface StationSettings {
  readonly armStrength: number;
  readonly playPrice: number;
  readonly prizeName: string;
  readonly prizeShape: PrizeShape;
  /**
   * Misses in a row after which a player may ask for a staff assist (0: none at this station)
   * [R11-9]; absent: the service's default.
   */
  readonly assistMisses?: number;
}
export type SettingsField = keyof StationSettings;
export const SETTINGS_FIELDS = [
  'armStrength',
  'playPrice',
  'prizeName',
  'prizeShape',
  'assistMisses',
] as const satisfies readonly SettingsField[];

/** What an operator asked to change (only the fields named). */
export type SettingsPatch = Partial<StationSettings>;

/** One field's change, as published. */
export interface SettingChange {
  readonly field: SettingsField;
  readonly before: number | string;
  readonly after: number | string;
}

/** A change waiting for the run on the station to end. */
export interface PendingSettings {
  readonly patch: SettingsPatch;
  /** A new prize also brings its stock (not a setting players are told of: the catalogue shows it). */
  readonly stock: number | null;
  readonly reason: SettingsChangeReason;
  /** The operator who asked (their login), or null for the service itself. */
  readonly operator: string | null;
  /** When the first of the merged changes was asked (epoch ms). */
  readonly requestedAt: number;
}

/** The fields a patch really changes, before → after, in a fixed order (none: nothing to publish). */
export function settingsChanges(current: StationSettings, patch: SettingsPatch): SettingChange[] {
  const now: Required<StationSettings> = { ...current, assistMisses: assistMissesOf(current) };
  return SETTINGS_FIELDS.flatMap((field) => {
    const after = patch[field];
    return after === undefined || after === now[field] ? [] : [{ field, before: now[field], after }];
  });
}

/** The misses in a row a station asks for before a staff assist [R11-9]. */
export const assistMissesOf = (station: Pick<StationSettings, 'assistMisses'>): number =>
  station.assistMisses ?? STAFF_ASSIST_DEFAULT_MISSES;

/** A later change asked while one waits: its fields win; the reason and operator are the latest's, the time the first's. */
export function mergePending(waiting: PendingSettings | null, next: PendingSettings): PendingSettings {
  if (!waiting) return next;
  return {
    patch: { ...waiting.patch, ...next.patch },
    stock: next.stock ?? waiting.stock,
    reason: next.reason,
    operator: next.operator,
    requestedAt: waiting.requestedAt,
  };
}

/** Whether a patch changes the prize (a new field is laid: the line ends, as a prize change does [R4.3-3]). */
export const changesPrize = (patch: SettingsPatch): boolean =>
  patch.prizeName !== undefined || patch.prizeShape !== undefined;

/** One published version of a station's settings, as the history answers it. */
export interface SettingsVersion {
  readonly version: number;
  /** When it came into force (ISO). */
  readonly applied_at: string;
  readonly reason: SettingsChangeReason;
  readonly changes: readonly SettingChange[];
}

/** What each setting is called where players read it (the play screen says アームパワー too). */
export const SETTINGS_FIELD_LABELS: Readonly<Record<SettingsField, string>> = DOMAIN_MESSAGES.settingsFields;
const SHAPE_LABELS: Readonly<Record<PrizeShape, string>> = DOMAIN_MESSAGES.prizeShapes;

/** A setting's value as players read it: the strength in percent, the price in TC, the shape in words. */
export function settingValueText(field: SettingsField, value: number | string): string {
  switch (field) {
    case 'armStrength':
      return `${Math.round(Number(value) * 100)}%`;
    case 'playPrice':
      return `${formatThousands(Number(value))} TC`;
    case 'prizeShape':
      return SHAPE_LABELS[value as PrizeShape] ?? String(value);
    case 'prizeName':
      return String(value);
    case 'assistMisses':
      return DOMAIN_MESSAGES.assistMissesValue(Number(value));
  }
}

/** One change in words: 「アームパワー 42% → 90%」. */
export const settingChangeText = (change: SettingChange): string =>
  `${SETTINGS_FIELD_LABELS[change.field]} ${settingValueText(change.field, change.before)} → ${settingValueText(change.field, change.after)}`;
