import 'reflect-metadata';
import { installModalDialogs } from './support/modal-dialogs';

// scripts/test-on-node-lts.mjs runs the suite on a second Node: a worker on any other Node fails, so
// that run cannot pass on the wrong runtime.
const expectedNode = process.env.ONKURE_EXPECT_NODE;
if (expectedNode && process.versions.node !== expectedNode) {
  throw new Error(`this run is meant for Node ${expectedNode}, but the worker runs ${process.versions.node}`);
}

if (typeof window !== 'undefined') {
  installModalDialogs(window);
  // A modal's file is imported on demand (React.lazy). Under test, vitest transforms it at its first
  // use, which on a loaded CPU took 1.5 s in CI (the dialog still showed 読み込み中…), past
  // testing-library's default 1 s wait: the waits for what a modal shows allow 5 s.
  const { configure } = await import('@testing-library/dom');
  configure({ asyncUtilTimeout: 5_000 });
}
