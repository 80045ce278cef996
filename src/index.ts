/** onkure: the client library. Sub-paths: onkure/domain, onkure/application. */
export * from './domain';
export * from './application';
