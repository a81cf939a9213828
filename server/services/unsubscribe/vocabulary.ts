// What an unsubscribe is and what the page shows of it, declared once. Imports nothing.

/** How the person asked: the mailbox's one-click POST (RFC 8058), the confirmation page, or mail to the mailto address. */
export const UNSUBSCRIBE_CHANNELS = ['one-click', 'page', 'mailto'] as const;
export type UnsubscribeChannel = (typeof UNSUBSCRIBE_CHANNELS)[number];

/** A topic of the organization as the preference page offers it: whether the contact gets its mail now. */
export interface TopicOnPage {
  id: string;
  name: string;
  description: string | null;
  subscribed: boolean;
}

/**
 * Where the person a token names stands. `contact-deleted`: the contact is no longer in the
 * audience, so there is nothing left to unsubscribe from. `status`: whether they still get what
 * the email was sent under (`topic`, else the audience). `stoppedAll`: the address is on the
 * organization's suppression list, so it gets no mail at all from the sender. `topics`: the
 * organization's topics (none: the plain page; some: the preference page).
 */
export type UnsubscribeState =
  | { status: 'contact-deleted' }
  | {
      status: 'subscribed' | 'unsubscribed';
      email: string;
      organizationName: string;
      audienceName: string;
      stoppedAll: boolean;
      /** The topic of the broadcast the email belongs to: its unsubscribe leaves that topic only. Null: the audience. */
      topic: { id: string; name: string } | null;
      /** Subscribed in the audience (the spec's per-audience subscription). */
      inAudience: boolean;
      /** Unsubscribed from everything the organization sends to lists (the contact's global flag). */
      unsubscribedAll: boolean;
      topics: TopicOnPage[];
    };

/** The preference page's form: the topics (and the audience, when offered) it showed, and those left ticked. */
export interface PreferenceChoices {
  shown: { topics: string[]; audience: boolean };
  ticked: { topics: string[]; audience: boolean };
}

/**
 * What the person asked for. Without `preferences`: no more of what the email was sent under (its
 * topic, else the audience), as the one-click POST, mailto and the plain page ask. With them: the
 * preference page's choices. `everything` (a person on either page): unsubscribed from everything,
 * and the address on the suppression list.
 */
export interface UnsubscribeRequest {
  via: UnsubscribeChannel;
  /** The person's client (address and user agent) for the consent ledger; absent for mail to the mailto address. */
  client?: { address: string | null; userAgent: string | null };
  everything: boolean;
  preferences?: PreferenceChoices;
}
