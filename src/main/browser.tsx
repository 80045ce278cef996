import 'reflect-metadata';
import { createRoot } from 'react-dom/client';
import { OnkureApp } from '../ui';
import '../ui/styles.css';
import { readClientConfig } from './client-config';
import { createAppContainer } from './container';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(<OnkureApp container={createAppContainer(readClientConfig())} />);
