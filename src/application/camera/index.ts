export * from './camera-publisher.port';
export * from './camera-publishing.use-case';
export * from './camera-tokens';
