import type { UnsubscribeState } from '../services/unsubscribe/vocabulary';
import { escapeHtml, publicPages } from './public-page';

/* The family of /unsubscribe/{token} pages (public-page.ts: self-contained, every value escaped): the plain page and the preference page share one sheet. */

const { csp, layout } = publicPages(`
label{display:flex;gap:.6rem;align-items:flex-start;margin:0 0 1.25rem;cursor:pointer}
input[type=checkbox]{margin:.3rem 0 0;width:1.05rem;height:1.05rem;flex:none}
button{font:inherit;font-weight:600;color:#fff;background:#c62828;border:0;border-radius:.5rem;padding:.6rem 1.4rem;cursor:pointer}
button:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
button.save{background:#1b1d21}
fieldset{border:0;margin:0 0 .5rem;padding:0}
legend{font-weight:600;font-size:.8rem;letter-spacing:.04em;text-transform:uppercase;color:#5f6368;margin:0 0 .75rem;padding:0}
label .name{font-weight:600}
label .about{display:block;color:#5f6368;font-size:.9rem}
.tag{display:inline-block;margin-left:.4rem;padding:0 .45rem;border-radius:1rem;background:#e8eaed;color:#3c4043;font-size:.75rem;font-weight:600;vertical-align:.1rem}
.everything{margin:1.75rem 0 0;padding:1.25rem 0 0;border-top:1px solid #e0e2e6}
.quiet{color:#5f6368;font-size:.9rem}
@media (prefers-color-scheme:dark){.quiet,legend,label .about{color:#9aa0a6}button.save{background:#e8eaed;color:#1b1d21}.tag{background:#3c4043;color:#e8eaed}.everything{border-color:#3c4043}}
`);

/** The only style the pages may apply: their own sheet, by hash; no script, nothing from elsewhere, no framing. */
export const PAGE_CSP = csp;
export { layout };

export type Listed = Extract<UnsubscribeState, { email: string }>;

export const address = (state: Listed) => `<span class="address">${escapeHtml(state.email)}</span>`;

export const stoppedAllLine = (state: Listed) => `<p>${address(state)} gets no other email from ${escapeHtml(state.organizationName)} either.</p>`;

export const settlingLine = '<p class="quiet">It may take a moment for emails already on their way to stop.</p>';
