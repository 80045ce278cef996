import { afterEach, describe, expect, it } from 'vitest';
import { AppUpdates } from '../../src/application';
import { BUILD_MANIFEST_CHECK_MS, RELOAD_GUARD_MS } from '../../src/domain';
import { ManualClock, MemoryReloadMark, RecordingNavigator, ScriptedBuildManifest } from '../../src/testing';

const RUNNING = '/assets/index-aaaa.js';
const NEXT = '/assets/index-bbbb.js';

function setUp(mark = new MemoryReloadMark()) {
  const clock = new ManualClock(Date.parse('2026-11-23T10:00:00Z'));
  const manifest = new ScriptedBuildManifest();
  const navigator = new RecordingNavigator();
  const updates = new AppUpdates(manifest.port, mark, navigator, clock);
  return { clock, manifest, navigator, updates, mark };
}

/** Lets the check's answer (an observable answered at once) reach the use-case. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

let live: AppUpdates | null = null;
afterEach(() => live?.dispose());

describe('AppUpdates', () => {
  it('[R9-13] reads the build manifest every hour, and not before', async () => {
    const { clock, manifest, updates } = setUp();
    live = updates;
    manifest.always('servedBuild', RUNNING);
    updates.start(RUNNING);
    clock.advance(BUILD_MANIFEST_CHECK_MS - 1);
    expect(manifest.callsOf('servedBuild')).toHaveLength(0);
    clock.advance(1);
    await settle();
    expect(manifest.callsOf('servedBuild')).toHaveLength(1);
    clock.advance(BUILD_MANIFEST_CHECK_MS);
    await settle();
    expect(manifest.callsOf('servedBuild')).toHaveLength(2);
    expect(updates.snapshot.newBuild).toBe(false);
  });

  it('[R9-13] once another build is served, the next page the player goes to is loaded from the server; until then nothing reloads', async () => {
    const { clock, manifest, navigator, updates } = setUp();
    live = updates;
    manifest.answer('servedBuild', { value: RUNNING }, { value: NEXT });
    updates.start(RUNNING);
    expect(updates.navigated('/kuji')).toBe(false);
    clock.advance(BUILD_MANIFEST_CHECK_MS);
    await settle();
    expect(updates.navigated('/kuji')).toBe(false);
    clock.advance(BUILD_MANIFEST_CHECK_MS);
    await settle();
    expect(updates.snapshot.newBuild).toBe(true);
    expect(navigator.visits).toEqual([]);
    expect(updates.navigated('/information?page=2')).toBe(true);
    expect(navigator.visits).toEqual([{ kind: 'goTo', url: '/information?page=2' }]);
    // Checking stops: the page is moving to the new build.
    clock.advance(BUILD_MANIFEST_CHECK_MS * 3);
    await settle();
    expect(manifest.callsOf('servedBuild')).toHaveLength(2);
  });

  it('[R9-13] a chunk that cannot load reloads the page, but not again within 10 s (the mark outlives the reload)', () => {
    const mark = new MemoryReloadMark();
    const first = setUp(mark);
    expect(first.updates.chunkFailed()).toBe(true);
    expect(first.navigator.visits).toEqual([{ kind: 'reload' }]);
    // The reloaded page, 9.999 s later, fails again: no second reload.
    const again = setUp(mark);
    again.clock.set(first.clock.now() + RELOAD_GUARD_MS - 1);
    expect(again.updates.chunkFailed()).toBe(false);
    expect(again.navigator.visits).toEqual([]);
    again.clock.advance(1);
    expect(again.updates.chunkFailed()).toBe(true);
    expect(again.navigator.visits).toEqual([{ kind: 'reload' }]);
  });

  it('an unreadable manifest is no new build, and the checks go on', async () => {
    const { clock, manifest, updates } = setUp();
    live = updates;
    manifest.answer('servedBuild', { error: new Error('offline') }, { value: null });
    manifest.always('servedBuild', RUNNING);
    updates.start(RUNNING);
    for (let hour = 0; hour < 3; hour += 1) {
      clock.advance(BUILD_MANIFEST_CHECK_MS);
      await settle();
    }
    expect(manifest.callsOf('servedBuild')).toHaveLength(3);
    expect(updates.snapshot.newBuild).toBe(false);
  });

  it('dispose stops the checks', async () => {
    const { clock, manifest, updates } = setUp();
    manifest.always('servedBuild', NEXT);
    updates.start(RUNNING);
    updates.dispose();
    clock.advance(BUILD_MANIFEST_CHECK_MS * 2);
    await settle();
    expect(manifest.callsOf('servedBuild')).toHaveLength(0);
    expect(clock.pendingTimers).toBe(0);
  });
});
