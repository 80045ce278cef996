import { createContext, useContext, type ReactNode } from 'react';
import type { Container } from 'inversify';
import type { Token } from '../../application';

const ContainerContext = createContext<Container | null>(null);

/** Makes one app instance's container available to the components below it. */
export function ContainerProvider({ container, children }: { container: Container; children: ReactNode }) {
  return <ContainerContext.Provider value={container}>{children}</ContainerContext.Provider>;
}

/** Resolves a binding from the nearest container: `const topPage = useInjection(TOKENS.BrowseTopPage)`. */
export function useInjection<T>(token: Token<T>): T {
  const container = useContext(ContainerContext);
  if (!container) throw new Error('useInjection needs a <ContainerProvider> above it');
  return container.get<T>(token);
}
