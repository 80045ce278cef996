import 'reflect-metadata';
import { installModalDialogs } from './support/modal-dialogs';

if (typeof window !== 'undefined') installModalDialogs(window);
