'use client';

import { createAuthClient } from 'better-auth/react';
import { twoFactorClient } from 'better-auth/client/plugins';

/**
 * better-auth's browser client; the entry server answers /api/auth/* on the same origin. Its
 * two-factor plugin adds `authClient.twoFactor.*`; the sign-in form handles the code step itself.
 */
export const authClient = createAuthClient({ basePath: '/api/auth', plugins: [twoFactorClient()] });
