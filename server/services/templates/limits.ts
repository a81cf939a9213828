import { EMAIL_LIMITS } from '../emails/accept/limits';

/** Bounds of a template and of rendering one; docs/templates.md explains each. */
export const TEMPLATE_LIMITS = {
  nameChars: 255,
  /** The sample variables of the editor's preview and test send, as JSON text: far beyond any sample typed, far below a body. */
  sampleVariablesChars: 256 * 1024,
  /** The source of the subject, and what it renders to when sent: an email's subject bound. */
  subjectChars: EMAIL_LIMITS.subjectChars,
  /** html and text together, in UTF-8 bytes: an email's body bound. */
  bodyBytes: EMAIL_LIMITS.bodyBytes,
  /** Liquid markups (`{{ … }}` and `{% … %}`) in one part: LiquidJS parses them in time that grows faster than their number. */
  markupsPerPart: 1000,
  /**
   * LiquidJS's renderLimit: wall time of rendering one part, checked between nodes only. Renders
   * run in the pool's workers, whose hard stop (render-pool.ts) is the real bound; this one is as
   * long, so a busy machine that delays a thread does not fail a render that is not slow.
   */
  renderMs: 1_000,
  /** LiquidJS's memoryLimit: characters filters and ranges may allocate while one part renders. */
  renderMemory: 4 * EMAIL_LIMITS.bodyBytes,
  /**
   * Characters one part's render may produce in all, counted as they grow: what it prints, what
   * its captures collect, the strings its filters return (bounded.ts). Two bodies' worth: a body
   * printed whole through a filter (`| raw`) fits.
   */
  producedChars: 2 * EMAIL_LIMITS.bodyBytes,
} as const;
