import { startTransition, type ReactNode } from 'react';
import { hydrateRoot, type HydrationOptions, type Root } from 'react-dom/client';

/**
 * Hydrates a server-rendered page in a transition (issue 27). A default-priority hydration runs to
 * its end in one task, so the whole tree's hydration is one long task that blocks input; in a
 * transition React hydrates in slices and yields to the browser between them. The page already
 * shows the server's markup meanwhile, and an input on a part not yet hydrated makes React hydrate
 * that part first.
 */
export function hydrateServerPage(element: Element, app: ReactNode, options?: HydrationOptions): Root {
  let root: Root | undefined;
  startTransition(() => {
    root = hydrateRoot(element, app, options);
  });
  return root!;
}
