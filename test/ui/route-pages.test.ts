import { resolve } from 'node:path';
import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from '../../src/ui';
import type { RouteHandle } from '../../src/ui/ssr/preload';

const ROOT = resolve(import.meta.dirname, '../..');

function lazyRoutes(list: readonly RouteObject[]): RouteObject[] {
  return list.flatMap((route) => [
    ...(typeof route.lazy === 'function' ? [route] : []),
    ...lazyRoutes(route.children ?? []),
  ]);
}

describe('the route table names each page module (issue 27: the server links its chunks)', () => {
  it("every lazily loaded page's handle names the module its code comes from", async () => {
    const pages = lazyRoutes(routes);
    expect(pages.length).toBeGreaterThan(10);
    for (const route of pages) {
      const page = (route.handle as RouteHandle | undefined)?.page;
      expect(page, route.path ?? 'index').toMatch(/^src\/ui\/.+\.tsx$/);
      const loaded = (await (route.lazy as () => Promise<{ Component?: unknown }>)()).Component;
      const module = (await import(resolve(ROOT, page!))) as Record<string, unknown>;
      expect(Object.values(module), route.path ?? 'index').toContain(loaded);
    }
  });
});
