// The camera worker thread's entry (media/cameras/camera-painter.ts starts it). The server is
// TypeScript run through tsx; a worker thread does not inherit tsx's loader in every host (a test
// runner's worker, `node --import tsx`), so the worker loads its TypeScript module through tsx's API.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
