/**
 * The wire contract shared by the client adapters and the reference server: zod schemas named
 * after the spec's §3 entities and the request bodies of §7. Imports only the domain and zod.
 */
export * from './envelope';
export * from './messages';
export * from './field-labels';
export * from './catalogue.schema';
export * from './endpoints';
export * from './user-identity.schema';
export * from './user.schema';
export * from './account.schema';
export * from './auth.schema';
export * from './purchase.schema';
export * from './pay-methods';
export * from './contents.schema';
export * from './play.schema';
export * from './clip.schema';
export * from './kuji.schema';
export * from './realtime';
export * from './analytics.schema';
export * from './page-render';
export * from './delivery.schema';
export * from './support.schema';
export * from './chat-message.schema';
