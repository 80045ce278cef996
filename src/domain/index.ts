/** onkure/domain: the pure rules and entities of the service. Imports nothing outside this folder. */
export * from './build-target';
export * from './catalogue/prize.entity';
