/**
 * onkure/testing: thin test doubles for every port (answers given by the test, calls recorded —
 * no rule of the service inside), a ManualClock, and entity factories with overrides. For unit tests
 * of use-cases and UIs built on the core; the service's behaviour itself is tested against the
 * reference server.
 */
export * from './scripted';
export * from './scripted-ports';
export * from './manual-clock';
export * from './factories';
export * from './play-doubles';
