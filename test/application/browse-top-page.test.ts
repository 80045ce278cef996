import { TestScheduler } from 'rxjs/testing';
import type { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BrowseTopPage, type PrizeCatalogPort, type TopPageState } from '../../src/application';
import type { TopPageCatalogue } from '../../src/domain';
import { anAppConfig, aPrizeItem, aTopPage } from '../../src/testing';

const config = anAppConfig({ shopId: 7 });

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('BrowseTopPage', () => {
  it('goes idle → loading → loaded with the port answer, asking for the configured shop', () => {
    scheduler().run(({ cold, flush }) => {
      const page = aTopPage();
      const asked: number[] = [];
      const port: Pick<PrizeCatalogPort, 'topPage'> = {
        topPage: (q) => (asked.push(q.shopId), cold('--a|', { a: page })),
      };
      const useCase = new BrowseTopPage(port, config);
      const states: TopPageState[] = [];
      useCase.state$.subscribe((s) => states.push(s));
      useCase.load();
      flush();
      expect(states.map((s) => s.kind)).toEqual(['idle', 'loading', 'loaded']);
      expect(states[2]).toEqual({ kind: 'loaded', catalogue: page });
      expect(asked).toEqual([7]);
    });
  });

  it('turns a failure into an error state and keeps state$ alive for a retry', () => {
    scheduler().run(({ cold, flush }) => {
      let call = 0;
      const page = aTopPage();
      const port: Pick<PrizeCatalogPort, 'topPage'> = {
        topPage: () =>
          call++ === 0 ? cold<TopPageCatalogue>('-#', undefined, new Error('down')) : cold('-a|', { a: page }),
      };
      const useCase = new BrowseTopPage(port, config);
      useCase.load();
      flush();
      expect(useCase.snapshot).toEqual({ kind: 'error', error: new Error('down') });
      useCase.load();
      flush();
      expect(useCase.snapshot).toEqual({ kind: 'loaded', catalogue: page });
    });
  });

  it('a newer load cancels the older request still in flight', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = aTopPage();
      const second = aTopPage({ sale_list: [{ tab_id: 1, title: '新着', list: [aPrizeItem({ station_id: 9 })] }] });
      const slow = cold<TopPageCatalogue>('-----a|', { a: first });
      const fast = cold<TopPageCatalogue>('-b|', { b: second });
      const answers: Observable<TopPageCatalogue>[] = [slow, fast];
      const useCase = new BrowseTopPage({ topPage: () => answers.shift()! }, config);
      cold('x-y').subscribe((v) => (v === 'x' || v === 'y') && useCase.load());
      expectObservable(useCase.state$).toBe('l-lb', {
        l: { kind: 'loading' },
        b: { kind: 'loaded', catalogue: second },
      });
      expectSubscriptions(slow.subscriptions).toBe('^-!');
      expectSubscriptions(fast.subscriptions).toBe('--^-!');
    });
  });

  it('ensureLoaded asks once however often it is called', () => {
    scheduler().run(({ cold, flush }) => {
      let calls = 0;
      const port: Pick<PrizeCatalogPort, 'topPage'> = { topPage: () => (calls++, cold('--a|', { a: aTopPage() })) };
      const useCase = new BrowseTopPage(port, config);
      useCase.ensureLoaded();
      useCase.ensureLoaded();
      flush();
      useCase.ensureLoaded();
      flush();
      expect(calls).toBe(1);
    });
  });

  it('dispose cancels the request in flight and completes state$', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer = cold<TopPageCatalogue>('-----a|', { a: aTopPage() });
      const useCase = new BrowseTopPage({ topPage: () => answer }, config);
      useCase.load();
      cold('---x').subscribe(() => useCase.dispose());
      expectObservable(useCase.state$).toBe('l--|', { l: { kind: 'loading' } });
      expectSubscriptions(answer.subscriptions).toBe('^--!');
    });
  });
});
