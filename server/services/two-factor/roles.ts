/**
 * Who may require two-factor sign-in of the whole organization: its owner. One function, so that
 * when more roles arrive the rule is changed in one place.
 */
export const mayRequireTwoFactor = (role: string | null): boolean => role === 'owner';
