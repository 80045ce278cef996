import type { Container } from 'inversify';
import {
  AccountDeletion,
  EmailChange,
  InviteFriend,
  PasswordChange,
  PasswordReset,
  PhoneCheck,
  PresentCodeRedeem,
  ProfileSettings,
  SignUp,
  TOKENS,
  VerifyEmail,
} from '../../application';
import type { FeatureModule } from './feature-module';

/** The account: signing up, passwords, e-mail, phone, profile, present codes, invitations, deletion. */
export const accountFeature: FeatureModule = {
  bind(container: Container) {
    container.bind(TOKENS.VerifyEmail).to(VerifyEmail).inTransientScope();
    container.bind(TOKENS.SignUp).to(SignUp).inTransientScope();
    container.bind(TOKENS.PasswordChange).to(PasswordChange).inTransientScope();
    container.bind(TOKENS.PasswordReset).to(PasswordReset).inTransientScope();
    container.bind(TOKENS.EmailChange).to(EmailChange).inTransientScope();
    container.bind(TOKENS.PhoneCheck).to(PhoneCheck).inTransientScope();
    container.bind(TOKENS.PresentCodeRedeem).to(PresentCodeRedeem).inTransientScope();
    container.bind(TOKENS.ProfileSettings).to(ProfileSettings).inTransientScope();
    container.bind(TOKENS.InviteFriend).to(InviteFriend).inTransientScope();
    container.bind(TOKENS.AccountDeletion).to(AccountDeletion).inTransientScope();
  },
};
