import { describe, expect, it } from 'vitest';
import { dailyFreePlayDay, dailyFreePlayEndsAt, fromJstParts } from '../../../src/domain';

describe('the daily free play [R11-8]', () => {
  it('[R11-8] belongs to the Japanese day and ends at its 24:00', () => {
    const late = fromJstParts(2026, 11, 25, 23, 59, 59);
    // 15:00 UTC is already the next day in Japan.
    expect(dailyFreePlayDay(Date.UTC(2026, 10, 25, 14, 59, 59))).toBe('2026-11-25');
    expect(dailyFreePlayDay(Date.UTC(2026, 10, 25, 15))).toBe('2026-11-26');
    expect(dailyFreePlayEndsAt(late)).toBe(fromJstParts(2026, 11, 26));
    expect(dailyFreePlayEndsAt(fromJstParts(2026, 11, 25))).toBe(fromJstParts(2026, 11, 26));
  });
});
