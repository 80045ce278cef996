import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Container } from 'inversify';
import type { Disposable, Token } from '../../application';

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

/**
 * A use-case owned by the calling component: a new instance from the container (bound in transient
 * scope) when the component mounts, disposed when it unmounts, so leaving a page closes every
 * request, subscription and timer its use-cases opened.
 *
 * Under StrictMode React mounts, unmounts and mounts again: the first instance is disposed and a
 * fresh one replaces it, so the component never holds a disposed use-case.
 *
 * `prepare` runs on each new instance before it is first rendered: a page hands it the data the
 * server's render loaded (`usePreloaded`), so the first render already shows it.
 *
 * @example
 * const browse = useScopedUseCase(TOKENS.BrowseTopPage);
 * const state = useObservableState(browse.state$, browse.snapshot);
 */
export function useScopedUseCase<T extends Disposable>(token: Token<T>, prepare?: (useCase: T) => void): T {
  const container = useContainer();
  const create = () => {
    const useCase = container.get<T>(token);
    prepare?.(useCase);
    return useCase;
  };
  const [instance, setInstance] = useState(create);
  useEffect(() => {
    if (instance.disposed) {
      // Re-mounted after a dispose (StrictMode, or the container changed): take a fresh instance;
      // the effect run for it owns its disposal.
      // eslint-disable-next-line react-hooks/set-state-in-effect -- replacing a disposed instance must happen after mount
      setInstance(create);
      return undefined;
    }
    return () => instance.dispose();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `prepare` seeds a new instance; it is not a reason to make one
  }, [container, token, instance]);
  return instance;
}
