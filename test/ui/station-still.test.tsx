/** @vitest-environment jsdom */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKENS } from '../../src/application';
import { ManualClock } from '../../src/testing';
import { ContainerProvider } from '../../src/ui/di/container-context';
import { StationStill, STILL_REFRESH_MS } from '../../src/ui/operator/station-still';
import { createTestContainer } from '../support/test-container';

/**
 * The console's station stills (issue 46): fetched again every 2 s only while on screen and while
 * the tab shows — the floor fetched all 36 every 2 s (≈ 18 requests a second) before.
 */
const observed = new Map<Element, (entries: { isIntersecting: boolean }[]) => void>();
class FakeIntersectionObserver {
  constructor(private readonly report: (entries: { isIntersecting: boolean }[]) => void) {}
  observe(element: Element) {
    observed.set(element, this.report);
  }
  disconnect() {}
}
const original = globalThis.IntersectionObserver;
beforeEach(() => {
  (globalThis as { IntersectionObserver: unknown }).IntersectionObserver = FakeIntersectionObserver;
});
afterEach(() => {
  cleanup();
  observed.clear();
  (globalThis as { IntersectionObserver: unknown }).IntersectionObserver = original;
});

const srcOf = (name: string) => (screen.getByAltText(new RegExp(name)) as HTMLImageElement).getAttribute('src');

describe('the console’s station stills', () => {
  it('a still in view is fetched again every 2 s; one scrolled away, or in a hidden tab, is not', () => {
    const clock = new ManualClock(Date.parse('2026-11-29T12:00:00Z'));
    const container = createTestContainer([TOKENS.ClockPort, clock]);
    render(
      <ContainerProvider container={container}>
        <StationStill url="/api/station/1/still" name="ST-0001" />
        <StationStill url="/api/station/2/still" name="ST-0002" />
      </ContainerProvider>,
    );
    const [first, second] = [...observed.entries()];
    act(() => {
      first![1]([{ isIntersecting: true }]);
      second![1]([{ isIntersecting: false }]);
    });
    const before = [srcOf('ST-0001'), srcOf('ST-0002')];
    act(() => clock.advance(STILL_REFRESH_MS));
    expect(srcOf('ST-0001')).not.toBe(before[0]);
    expect(srcOf('ST-0002')).toBe(before[1]);
    // Scrolled into view: it is fetched again too; the other one leaves and stops.
    act(() => {
      second![1]([{ isIntersecting: true }]);
      first![1]([{ isIntersecting: false }]);
    });
    const now = [srcOf('ST-0001'), srcOf('ST-0002')];
    act(() => clock.advance(STILL_REFRESH_MS));
    expect(srcOf('ST-0001')).toBe(now[0]);
    expect(srcOf('ST-0002')).not.toBe(now[1]);
    // The tab hidden: nothing is fetched.
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const hidden = srcOf('ST-0002');
    act(() => clock.advance(3 * STILL_REFRESH_MS));
    expect(srcOf('ST-0002')).toBe(hidden);
    Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
  });
});
