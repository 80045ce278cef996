/** onkure/ui: the React app over the use-cases. Never imports an adapter. */
export { OnkureApp, type OnkureAppProps } from './app';
export { ContainerProvider, useInjection } from './di/container-context';
export { useObservableState } from './hooks/use-observable-state';
export { MESSAGES } from './messages';
