import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SpamVerdict {
  score: number;
  /** Every rule that hit, with its points. */
  rules: Record<string, number>;
}

// Local rules only (-L: no DNS blocklists, no Razor/Pyzor, no DKIM key lookups); no Bayes, whose
// verdict would depend on what this machine learned before. The two headers carry the verdict.
const SETTINGS = ['use_bayes 0', 'bayes_auto_learn 0', 'add_header all Score _SCORE_', 'add_header all Tests _TESTSSCORES(,)_'];

/** mboxrd: a body line that starts with "From " (or a quoted one) gets one more ">". */
const mboxEntry = (raw: string) => `From deliverability@localhost Thu Jan  1 00:00:00 1970\n${raw.replace(/\r\n/g, '\n').replace(/^(>*From )/gm, '>$1')}\n`;

const headOf = (message: string) => message.replace(/\r\n/g, '\n').split(/\n\n/)[0]!.replace(/\n[ \t]+/g, ' ');
const messageIdOf = (message: string) => /^Message-ID: *(\S+)/im.exec(headOf(message))?.[1] ?? '';

function verdictOf(message: string): SpamVerdict {
  const head = headOf(message);
  const score = /^X-Spam-Score: (-?[\d.]+)$/m.exec(head)?.[1];
  const tests = /^X-Spam-Tests: (.*)$/m.exec(head)?.[1]?.trim() ?? '';
  if (score === undefined) throw new Error(`spamassassin gave no score for a message:\n${head}`);
  const rules = Object.fromEntries(
    tests
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => {
        const [name, points] = entry.split('=');
        return [name!, Number(points)];
      }),
  );
  return { score: Number(score), rules };
}

/**
 * Scores messages with Apache SpamAssassin in one process (its start-up takes seconds): the
 * messages (each with its own Message-ID) go in as one mbox and come back with the verdict headers added.
 */
export async function scoreMessages(raws: string[]): Promise<SpamVerdict[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'eumail-sa-'));
  try {
    const mbox = path.join(dir, 'messages.mbox');
    const prefs = path.join(dir, 'user_prefs');
    await writeFile(mbox, raws.map(mboxEntry).join(''));
    await writeFile(prefs, '');
    const args = ['-L', '--mbox', '-p', prefs, ...SETTINGS.flatMap((line) => ['--cf', line]), mbox];
    const output = await new Promise<string>((resolve, reject) => {
      // HOME points into the scratch folder: spamassassin writes ~/.spamassassin otherwise.
      execFile('spamassassin', args, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, HOME: dir } }, (error, stdout, stderr) =>
        error ? reject(new Error(`spamassassin failed: ${stderr || error.message}`)) : resolve(stdout),
      );
    });
    const messages = output.split(/^From deliverability@localhost .*\n/m).filter((part) => part.trim() !== '');
    if (messages.length !== raws.length) throw new Error(`spamassassin answered for ${messages.length} of ${raws.length} messages`);
    // Matched by Message-ID, not by position: the answers need not come in the order asked.
    const byId = new Map(messages.map((message) => [messageIdOf(message), verdictOf(message)]));
    return raws.map((raw) => {
      const verdict = byId.get(messageIdOf(raw));
      if (!verdict) throw new Error(`spamassassin gave no verdict for ${messageIdOf(raw) || 'a message without a Message-ID'}`);
      return verdict;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
