import type { Token } from '../tokens';
import type { CameraPublisherPort } from './camera-publisher.port';
import type { CameraPublishing } from './camera-publishing.use-case';

function token<T>(name: string): Token<T> {
  return Symbol.for(`onkure.camera.${name}`) as Token<T>;
}

/** The camera page's container bindings (its own container, like the console's). */
export const CAMERA_TOKENS = {
  CameraPublisherPort: token<CameraPublisherPort>('CameraPublisherPort'),
  CameraPublishing: token<CameraPublishing>('CameraPublishing'),
} as const;
