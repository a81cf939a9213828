/** Bounds the spec leaves open; docs/emails.md explains each. */
export const EMAIL_LIMITS = {
  recipients: 50,
  subjectChars: 998,
  bodyBytes: 5 * 1024 * 1024,
  attachments: 20,
  attachmentBytes: 10 * 1024 * 1024,
  tags: 20,
  tagChars: 256,
  headers: 30,
  headerValueChars: 2000,
  scheduleAheadDays: 30,
} as const;

/** Custom headers a sender may set; everything else is ours to write (From, DKIM, Return-Path, ...). */
export const ALLOWED_HEADER = /^(X-[A-Za-z0-9-]+|List-Unsubscribe|List-Unsubscribe-Post|List-Id|In-Reply-To|References|Auto-Submitted|Precedence|Keywords|Comments)$/i;
