import { DAY_MS, HOUR_MS, WEEK_START, type WeekStart } from '../constants';

/**
 * Japan Standard Time, the one place the domain handles it.
 *
 * Asia/Tokyo is UTC+9 all year: Japan has had no daylight-saving time since 1951. So JST is pure
 * arithmetic on epoch milliseconds — add nine hours and read the UTC fields — and needs neither
 * `Intl` nor the host's time-zone data (which may be missing in small runtimes). Every rule that
 * speaks of a Japanese calendar moment (the weekly VIP reset at Monday 00:00, dates sent without an
 * offset) goes through this module.
 */
export const JST_OFFSET_MS = 9 * HOUR_MS;

/** Calendar fields of an instant as read on a clock in Japan. weekday: 0 = Monday … 6 = Sunday. */
export interface JstDateParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly weekday: number;
}

/** Days since 1970-01-01 on the Japanese calendar for an instant. */
function jstDayNumber(epochMs: number): number {
  return Math.floor((epochMs + JST_OFFSET_MS) / DAY_MS);
}

/** Monday-based weekday (0 = Monday) of a day number; 1970-01-01 was a Thursday (3). */
function weekdayOfDayNumber(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The calendar fields of `epochMs` in Japan. */
export function toJstParts(epochMs: number): JstDateParts {
  const shifted = new Date(epochMs + JST_OFFSET_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    weekday: weekdayOfDayNumber(jstDayNumber(epochMs)),
  };
}

/** The instant of a wall-clock time in Japan (month 1–12). */
export function fromJstParts(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) - JST_OFFSET_MS;
}

/** Midnight (00:00 JST) of the Japanese day that contains `epochMs`. */
export function startOfJstDay(epochMs: number): number {
  return jstDayNumber(epochMs) * DAY_MS - JST_OFFSET_MS;
}

/** 00:00 JST on the first day of the Japanese calendar month that contains `epochMs`. */
export function startOfJstMonth(epochMs: number): number {
  const { year, month } = toJstParts(epochMs);
  return fromJstParts(year, month, 1);
}

const WEEK_MS = 7 * DAY_MS;
/** Monday 5 January 1970, 00:00 JST: weeks are counted from it. */
const FIRST_MONDAY_MS = 4 * DAY_MS - JST_OFFSET_MS;

/**
 * The start of the week that contains `epochMs`: by default the service's week, Monday 00:00 JST,
 * when the VIP prize count resets and the free-delivery ticket is granted [R6-4, R10-6].
 */
export function startOfJstWeek(epochMs: number, start: WeekStart = WEEK_START): number {
  const first = FIRST_MONDAY_MS + start.weekday * DAY_MS + start.hour * HOUR_MS;
  return first + Math.floor((epochMs - first) / WEEK_MS) * WEEK_MS;
}

/** The next week start after `epochMs` (the coming Monday 00:00 JST): the VIP reset, the ticket's grant [R6-4, R10-6]. */
export function nextJstWeekStart(epochMs: number, start: WeekStart = WEEK_START): number {
  return startOfJstWeek(epochMs, start) + WEEK_MS;
}

const JST_DATE_TIME = /^(\d{4})[-/](\d{2})[-/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * Parses a service timestamp. Text with an explicit offset or 'Z' (ISO 8601) is read as written;
 * 'YYYY-MM-DD HH:mm[:ss]' or 'YYYY/MM/DD …' without an offset is Japanese wall-clock time, which is
 * how the service writes play_at and created_at. Returns null for anything else.
 */
export function parseServiceTime(text: string): number | null {
  const trimmed = text.trim();
  const local = JST_DATE_TIME.exec(trimmed);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    const month = Number(mo);
    const day = Number(d);
    const hour = Number(h ?? 0);
    const minute = Number(mi ?? 0);
    const second = Number(s ?? 0);
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
    const ms = fromJstParts(Number(y), month, day, hour, minute, second);
    // Reject dates that roll over (2025-02-30 would become March 2).
    return toJstParts(ms).day === day ? ms : null;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(trimmed)) {
    const ms = Date.parse(trimmed);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

/** The Japanese calendar date of a service time as players read it, 'YYYY/MM/DD'; '' when unreadable. */
export function jstDateLabel(text: string): string {
  const ms = parseServiceTime(text);
  if (ms === null) return '';
  const d = toJstParts(ms);
  return `${d.year}/${String(d.month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}`;
}

/** An instant as Japanese wall-clock text, 'YYYY/MM/DD HH:mm' (histories, notices). */
export function formatJstDateTime(epochMs: number): string {
  const t = toJstParts(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${t.year}/${two(t.month)}/${two(t.day)} ${two(t.hour)}:${two(t.minute)}`;
}

/** The Japanese calendar day of an instant as 'YYYY-MM-DD'. */
export function jstIsoDate(epochMs: number): string {
  const p = toJstParts(epochMs);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
