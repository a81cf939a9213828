export { mayRequireTwoFactor } from './roles';
export { mustSetUpTwoFactor, twoFactorRequired } from './gate';
export { setTwoFactorRequirement, twoFactorStatus } from './requirement';
export { recordTwoFactorSwitch } from './audit';
