// What an unsubscribe is and what the page shows of it, declared once. Imports nothing.

/** How the person asked: the mailbox's one-click POST (RFC 8058), the confirmation page, or mail to the mailto address. */
export const UNSUBSCRIBE_CHANNELS = ['one-click', 'page', 'mailto'] as const;
export type UnsubscribeChannel = (typeof UNSUBSCRIBE_CHANNELS)[number];

/**
 * Where the person a token names stands. `contact-deleted`: the contact is no longer in the
 * audience, so there is nothing left to unsubscribe from. `stoppedAll`: the address is on the
 * organization's suppression list, so it gets no mail at all from the sender.
 */
export type UnsubscribeState =
  | { status: 'contact-deleted' }
  | { status: 'subscribed' | 'unsubscribed'; email: string; organizationName: string; audienceName: string; stoppedAll: boolean };
