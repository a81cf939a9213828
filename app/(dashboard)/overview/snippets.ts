// The first-email snippets of the getting-started checklist: pure, so a test can run them as a
// person would, with the full key pasted where the prefix stands.

export interface SnippetInput {
  /** `{base_url}`: APP_URL and /api. */
  apiBaseUrl: string;
  /** The key to use: its stored prefix only, the secret was shown once at creation. Null before any key. */
  key: { name: string; tokenStart: string; mode: 'live' | 'test' } | null;
  /** The mode of the key to suggest when there is none yet. */
  mode: 'live' | 'test';
  from: string;
  to: string;
  /** The email whose events the third command reads: the newest one, else a placeholder for the id the send answered. */
  emailId?: string | null;
}

export interface Snippets {
  curl: string;
  node: string;
  /** The third command of the README's "Send your first email": the email with its events (GET /emails/{id}). */
  events: string;
  /** What stands for the key in both: its prefix and "...", for the person to complete. */
  keyPlaceholder: string;
}

export const SNIPPET_SUBJECT = 'Hello from EU Mail';
const TEXT = 'It works! This is my first email sent with EU Mail.';
const HTML = '<p>It works! This is my first email sent with <strong>EU Mail</strong>.</p>';

/** A value for a POSIX shell's single quotes: a quote ends them, is escaped, and they start again. */
const shellQuoted = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;
/** A key name inside a one-line comment: no line breaks can end the comment early. */
const commentSafe = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, ' ');

const whoseKey = (input: SnippetInput) =>
  input.key ? `the full key of "${commentSafe(input.key.name)}", shown once when it was created` : `a ${input.mode} key: create one first`;

export function sendSnippets(input: SnippetInput): Snippets {
  const keyPlaceholder = `${input.key?.tokenStart ?? `eu_${input.mode}_`}...`;
  const endpoint = `${input.apiBaseUrl.replace(/\/+$/, '')}/emails`;
  const body = { from: input.from, to: [input.to], subject: SNIPPET_SUBJECT, text: TEXT, html: HTML };
  const json = JSON.stringify(body, null, 2)
    .split('\n')
    .map((line, index) => (index === 0 ? line : `  ${line}`))
    .join('\n');

  const curl = [
    `export EUMAIL_API_KEY=${shellQuoted(keyPlaceholder)}  # ${whoseKey(input)}`,
    '',
    `curl -X POST ${shellQuoted(endpoint)} \\`,
    `  -H "Authorization: Bearer $EUMAIL_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuoted(json)}`,
  ].join('\n');

  const node = [
    `// send.mjs: run with EUMAIL_API_KEY=${shellQuoted(keyPlaceholder)} node send.mjs`,
    `// (${whoseKey(input)})`,
    `const response = await fetch(${JSON.stringify(endpoint)}, {`,
    `  method: 'POST',`,
    `  headers: {`,
    '    Authorization: `Bearer ${process.env.EUMAIL_API_KEY}`,',
    `    'Content-Type': 'application/json',`,
    `  },`,
    `  body: JSON.stringify({`,
    `    from: ${JSON.stringify(body.from)},`,
    `    to: [${JSON.stringify(body.to[0])}],`,
    `    subject: ${JSON.stringify(body.subject)},`,
    `    text: ${JSON.stringify(body.text)},`,
    `    html: ${JSON.stringify(body.html)},`,
    `  }),`,
    `});`,
    `console.log(response.status, await response.json());`,
  ].join('\n');

  const events = [
    input.emailId ? '# The email with its events (queued, sent, delivered...):' : '# The email with its events: put the "id" the send answered in EMAIL_ID',
    `EMAIL_ID=${shellQuoted(input.emailId ?? '<id>')}`,
    `curl ${shellQuoted(`${endpoint}/`)}"$EMAIL_ID" -H "Authorization: Bearer $EUMAIL_API_KEY"`,
  ].join('\n');

  return { curl, node, events, keyPlaceholder };
}
