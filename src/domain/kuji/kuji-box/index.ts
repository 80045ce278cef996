/** A kuji box's rules: one pure state machine per box (docs/kuji.md). */
export * from './kuji-box.types';
export { kujiTransition, kujiNextWakeup, kujiBoxUsers } from './kuji-transition';
export { restoreKujiBox } from './kuji-restore';
