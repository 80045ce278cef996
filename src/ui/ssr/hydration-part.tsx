import { Suspense, useSyncExternalStore, type ReactNode } from 'react';

/**
 * A part of a server-rendered page that React hydrates on its own (a Suspense boundary around it).
 * The page's shell is hydrated first; each part after it at a lower priority and in slices, so the
 * browser can paint and answer input between parts instead of waiting for one long hydration
 * (issue 27, docs/performance.md). Nothing in a part needs to suspend: the boundary alone is what
 * lets React hydrate it apart. Rendered in the browser without a server render, it is a plain
 * wrapper.
 */
export function HydrationPart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}

const never = () => () => undefined;

/**
 * False in a server render and in the browser's hydrating render, true from the render after.
 *
 * Inline `style` attributes are for the browser only: the CSP (style-src 'self') blocks a style
 * attribute written in the server's markup, and hydration would not set it again. A component
 * gives its `style` once hydrated (React then sets it through the DOM, which the CSP allows).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
