import type { Container } from 'inversify';
import { ContactForm, SupportChat, TOKENS } from '../../application';
import { KySupport } from '../../infrastructure';
import type { FeatureDeps, FeatureModule } from './feature-module';

/** Support: the contact form and the chat with the support staff. */
export const supportFeature: FeatureModule = {
  bind(container: Container, { http }: FeatureDeps) {
    container.bind(TOKENS.SupportPort).toConstantValue(new KySupport(http));
    container.bind(TOKENS.ContactForm).to(ContactForm).inTransientScope();
    container.bind(TOKENS.SupportChat).to(SupportChat).inTransientScope();
  },
};
