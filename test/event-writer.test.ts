import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { projectRoot as root, sourceFiles } from './support/source-files';

// "Something happened to an email" has one writer (server/services/emails/events.ts) and every
// event of the log one fragment (server/services/shared/events.ts): webhooks' fan-out and the
// broadcast tally sit below them, so nothing else may reach those internals or write the tables.

const files = ['server', 'inngest', 'app'].flatMap((folder) => [...sourceFiles(path.join(root, folder))]).map((file) => ({
  name: path.relative(root, file),
  text: readFileSync(file, 'utf8'),
}));

const importers = (target: RegExp) =>
  files.filter(({ text }) => ts.preProcessFile(text, true, true).importedFiles.some((entry) => target.test(entry.fileName))).map(({ name }) => name);

describe('the one event writer', () => {
  it('alone queues webhook deliveries for logged events', () => {
    expect(importers(/(^|\/)webhooks\/fan-out$|^\.\/fan-out$/)).toEqual(['server/services/shared/events.ts']);
  });

  it('alone moves broadcast counts with email events', () => {
    expect(importers(/(^|\/)broadcasts\/tally$|^\.\/tally$/)).toEqual(['server/services/emails/events.ts']);
  });

  it('alone writes an email history', () => {
    const writers = files.filter(({ text }) => /insert\(emailEvents\)|into \$\{tableName\(emailEvents\)\}|into email_events/.test(text)).map(({ name }) => name);
    expect(writers).toEqual(['server/services/emails/events.ts']);
  });
});
