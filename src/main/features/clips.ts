import type { Container } from 'inversify';
import { PlayClipViewer, SharedClip, TOKENS } from '../../application';
import { KyClips } from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** Videos of plays (docs/clips.md): the player's clip of a play, and a shared clip's public page. */
export const clipsFeature: FeatureModule = {
  bind(container: Container, { http }: FeatureDeps) {
    container.bind(TOKENS.ClipPort).toConstantValue(new KyClips(http));
    container.bind(TOKENS.PlayClipViewer).to(PlayClipViewer).inTransientScope();
    container.bind(TOKENS.SharedClip).to(SharedClip).inTransientScope();
  },
};
