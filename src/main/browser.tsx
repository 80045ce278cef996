import 'reflect-metadata';
import { createRoot } from 'react-dom/client';
import { OnkureApp } from '../ui';
import '../ui/styles.css';
import { readClientConfig } from './client-config';
import { createAppContainer, startAppAnalytics } from './container';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container = createAppContainer(readClientConfig());
createRoot(root).render(<OnkureApp container={container} />);
// The analytics tag loads now (only when an id is configured), not at import time.
startAppAnalytics(container);
