import { Container } from 'inversify';
import { CAMERA_TOKENS, CameraPublishing, type CameraPublisherPort } from '../application/camera';
import { WhipCameraPublisher } from '../infrastructure/camera/whip-camera-publisher.adapter';

/**
 * The camera page's composition root: its own container (nothing of the player's app or the
 * console), the WHIP publisher over the browser's camera. A host may pass another publisher.
 */
export function createCameraContainer(
  config: { readonly whipBase: string; readonly codec: () => 'VP8' | 'H264' },
  overrides: { readonly publisher?: CameraPublisherPort } = {},
): Container {
  const container = new Container({ defaultScope: 'Transient' });
  container
    .bind(CAMERA_TOKENS.CameraPublisherPort)
    .toConstantValue(overrides.publisher ?? new WhipCameraPublisher({ base: config.whipBase, codec: config.codec }));
  container.bind(CAMERA_TOKENS.CameraPublishing).to(CameraPublishing).inSingletonScope();
  return container;
}
