import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvReader, detectDelimiter, holdsFirstRecord, readCsv } from '@/server/services/contact-imports/csv-records';

// An import's file is read as it arrives, in pieces cut anywhere, and again piece by piece from the
// record a batch resumes at: what a record is must not depend on where the text was cut.

/** The records of `text` pushed in pieces cut at `cuts`. */
function inPieces(text: string, cuts: number[]) {
  const reader = new CsvReader({ delimiter: detectDelimiter(text) });
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const records = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    records.push(...reader.push(text.slice(from, point)));
    from = point;
  }
  records.push(...reader.end());
  return { records, unterminatedQuote: reader.unterminatedQuote };
}

const csvText = fc
  .array(fc.constantFrom('a', 'b', ' ', ',', ';', '"', '""', '\r', '\n', '\r\n', 'é', '𝒳', '\t'), { maxLength: 60 })
  .map((parts) => parts.join(''));

describe('the streaming CSV reader', () => {
  it('reads the same records, lines and ends whatever the pieces', () => {
    fc.assert(
      fc.property(csvText, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        expect(inPieces(text, cuts)).toEqual({ records: readCsv(text, { delimiter: detectDelimiter(text) }).records, unterminatedQuote: readCsv(text).unterminatedQuote });
      }),
      { numRuns: 2_000 },
    );
  });

  it('ends a record after its whole line break, so a piece that starts there reads on its own with its first line', () => {
    fc.assert(
      fc.property(csvText, (text) => {
        const { records, delimiter } = readCsv(text);
        for (let at = 0; at < records.length; at += 1) {
          const start = records[at]!;
          const rest = readCsv(text.slice(start.end), { delimiter, firstLine: start.nextLine }).records;
          expect(rest.map(({ fields, line }) => ({ fields, line }))).toEqual(records.slice(at + 1).map(({ fields, line }) => ({ fields, line })));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('holds a CRLF together across pieces and a doubled quote across pieces', () => {
    const reader = new CsvReader({ delimiter: ',' });
    expect(reader.push('a,"say ""')).toEqual([]);
    expect(reader.push('hi"""\r')).toEqual([]);
    expect(reader.push('\nb,c\r')).toEqual([{ fields: ['a', 'say "hi"'], line: 1, end: 16, nextLine: 2 }]);
    expect(reader.push('')).toEqual([]);
    expect(reader.end()).toEqual([{ fields: ['b', 'c'], line: 2, end: 20, nextLine: 3 }]);
  });

  it('knows when the first record is whole, quoted line breaks not counted', () => {
    expect(holdsFirstRecord('email,name')).toBe(false);
    expect(holdsFirstRecord('"e\nmail",name')).toBe(false);
    expect(holdsFirstRecord('email,name\n')).toBe(true);
    expect(holdsFirstRecord('email\r')).toBe(true);
  });
});
