// The operator console's entry (/operator): its own bundle, nothing of it in the player's app.
import 'reflect-metadata/lite';
import { useEffect, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { OperatorConsoleApp } from '../ui/operator/operator-app';
import '../ui/operator/operator.css';
import { readClientConfig } from './client-config';
import { createOperatorContainer } from './operator-container';

/** Marks the page as live (`<html data-ready>`) once its first render has committed: e2e waits for it. */
function Ready({ children }: { children: ReactNode }) {
  useEffect(() => document.documentElement.setAttribute('data-ready', ''), []);
  return children;
}

const root = document.getElementById('root');
if (!root) throw new Error('operator.html has no #root element');
const config = readClientConfig();
const container = createOperatorContainer({
  apiBase: config.apiBase,
  authorization: config.authorization,
  timeoutMs: config.timeoutMs > 0 ? config.timeoutMs : 15_000,
  realtimeUrl: config.realtimeUrl,
});
createRoot(root).render(
  <Ready>
    <OperatorConsoleApp container={container} />
  </Ready>,
);
