import { AppError } from '../../errors';

/** A person must set up two-factor sign-in before anything else: their organization requires it and they have none. */
export const mustSetUpTwoFactor = (organization: { requireTwoFactor: boolean }, user: { twoFactorEnabled?: boolean | null }): boolean =>
  organization.requireTwoFactor && user.twoFactorEnabled !== true;

/** The refusal every other dashboard procedure answers meanwhile (403 TWO_FACTOR_REQUIRED). */
export const twoFactorRequired = () =>
  new AppError('TWO_FACTOR_REQUIRED', 'Your organization requires two-factor sign-in. Set it up on your account page before you continue.');
