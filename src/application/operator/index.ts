/** The operator console's application layer (docs/operator-console.md): its use-cases and ports. */
export * from './ports/operator-api.port';
export * from './operator-call-failed';
export * from './operator-rights';
export * from './operator-tokens';
export * from './operator-screen';
export * from './operator-session.use-case';
export * from './operator-floor.use-case';
export * from './operator-messages.use-case';
export * from './operator-kuji.use-case';
export * from './operator-fulfilment.use-case';
export * from './operator-support.use-case';
export * from './operator-numbers.use-case';
export * from './operator-money.use-case';
export * from './operator-audit.use-case';
export * from './operator-machine-keys.use-case';
export * from './operator-machines.use-case';
export * from './play-replay';
