import { createContext, useContext, type ReactNode } from 'react';
import type { Container } from 'inversify';
import type { Token } from '../../application';

const ContainerContext = createContext<Container | null>(null);

/** Makes one app instance's container available to the components below it. */
export function ContainerProvider({ container, children }: { container: Container; children: ReactNode }) {
  return <ContainerContext.Provider value={container}>{children}</ContainerContext.Provider>;
}

/** The nearest container; throws when no `<ContainerProvider>` is above. */
export function useContainer(): Container {
  const container = useContext(ContainerContext);
  if (!container) throw new Error('onkure: a <ContainerProvider> must be above this component');
  return container;
}

/**
 * Resolves an app-wide binding from the nearest container (ports, app-lifetime use-cases such as
 * ServiceMaintenance). For a use-case that belongs to a page or component, use `useScopedUseCase`.
 */
export function useInjection<T>(token: Token<T>): T {
  return useContainer().get<T>(token);
}
