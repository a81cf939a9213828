'use client';

import { createAuthClient } from 'better-auth/react';

/** better-auth's browser client; the entry server answers /api/auth/* on the same origin. */
export const authClient = createAuthClient({ basePath: '/api/auth' });
