/*
 * CSV as spreadsheets and databases write it (RFC 4180, leniently), read as it arrives: the one set
 * of rules for the dashboard's preview (app/lib/csv.ts reads a whole file with it) and for an
 * import's file, which is read piece by piece as it is uploaded and again batch by batch. Imports
 * nothing: the browser runs it too.
 *
 * Fields in double quotes may hold the separator, line breaks and doubled quotes (`""`); lines end
 * in CRLF, LF or CR. Lenient where files in the wild differ: spaces before an opening quote are
 * ignored, and a quote inside an unquoted field is kept as text. Values are not trimmed; a blank
 * line is no record.
 */

/** The separators a CSV file may use: spreadsheets in much of Europe write `;`, some tools a tab. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** One record of the file: its fields, and the line of the file it starts on (1-based). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** A record as the reader hands it out: also where it ends (after its line break), in characters of the whole input. */
export interface ReadRecord extends CsvRecord {
  end: number;
  /** The line the next record would start on. */
  nextLine: number;
}

const BOM = '\uFEFF';

/**
 * The separator of the file: the candidate that occurs most often in its first record, quoted
 * text not counted. A comma when there is none (a file of one column).
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(CSV_DELIMITERS.map((delimiter) => [delimiter, 0]));
  let quoted = false;
  for (let i = text.startsWith(BOM) ? 1 : 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char as CsvDelimiter)) counts.set(char as CsvDelimiter, counts.get(char as CsvDelimiter)! + 1);
  }
  let best: CsvDelimiter = ',';
  for (const [delimiter, count] of counts) if (count > counts.get(best)!) best = delimiter;
  return best;
}

/**
 * Whether `text` holds the whole first record (an unquoted line break), so the separator can be
 * told from it; a file shorter than that is read whole first.
 */
export function holdsFirstRecord(text: string): boolean {
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) return true;
  }
  return false;
}

/**
 * Reads records from text given in pieces of any size: `push` answers the records completed so
 * far, `end` the last one. A piece may end anywhere (inside quotes, between CR and LF); what a
 * record is does not depend on where the pieces were cut.
 */
export class CsvReader {
  readonly delimiter: CsvDelimiter;
  private fields: string[] = [];
  private field = '';
  /** Whether the current field opened with a quote (so `""` is a value, not a blank line). */
  private fieldQuoted = false;
  private recordQuoted = false;
  private inQuotes = false;
  private line: number;
  private recordLine: number;
  /** Characters of the input read so far, in all pieces. */
  private offset = 0;
  /** The last piece ended on a quote inside quotes: a doubled quote or the closing one, as the next character says. */
  private quoteAtEnd = false;
  /** The last piece ended on a CR: an LF first in the next belongs to the same line break. */
  private crAtEnd = false;
  /** A record ended by that CR, handed out once its line break's end is known. */
  private held: ReadRecord | null = null;

  constructor(options: { delimiter: CsvDelimiter; firstLine?: number }) {
    this.delimiter = options.delimiter;
    this.line = options.firstLine ?? 1;
    this.recordLine = this.line;
  }

  /** A quoted field was still open: at the end of the input, its record swallowed the rest. */
  get unterminatedQuote(): boolean {
    return this.inQuotes;
  }

  push(text: string): ReadRecord[] {
    const out: ReadRecord[] = [];
    if (text.length === 0) return out;
    let i = 0;
    if (this.crAtEnd) {
      this.crAtEnd = false;
      if (text[0] === '\n') i = 1;
      if (this.held) {
        this.held.end = this.offset + i;
        out.push(this.held);
        this.held = null;
      }
    }
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      if (text[0] === '"') {
        this.field += '"';
        i = 1;
      } else {
        this.inQuotes = false;
      }
    }
    const { delimiter } = this;
    for (; i < text.length; i += 1) {
      const char = text[i]!;
      if (this.inQuotes) {
        if (char === '"') {
          if (i + 1 === text.length) {
            this.quoteAtEnd = true;
          } else if (text[i + 1] === '"') {
            this.field += '"';
            i += 1;
          } else {
            this.inQuotes = false;
          }
        } else if (char === '\r' || char === '\n') {
          // A line break inside quotes belongs to the value, as a plain \n whatever the file uses.
          if (char === '\r') {
            if (i + 1 === text.length) this.crAtEnd = true;
            else if (text[i + 1] === '\n') i += 1;
          }
          this.field += '\n';
          this.line += 1;
        } else {
          this.field += char;
        }
      } else if (char === '"' && !this.fieldQuoted && this.field.trim() === '') {
        this.inQuotes = true;
        this.fieldQuoted = true;
        this.recordQuoted = true;
        this.field = '';
      } else if (char === delimiter) {
        this.endField();
      } else if (char === '\r' || char === '\n') {
        let end = this.offset + i + 1;
        let waits = false;
        if (char === '\r') {
          if (i + 1 === text.length) {
            this.crAtEnd = true;
            waits = true;
          } else if (text[i + 1] === '\n') {
            i += 1;
            end += 1;
          }
        }
        const record = this.endRecord(end);
        if (record && waits) this.held = record;
        else if (record) out.push(record);
      } else {
        this.field += char;
      }
    }
    this.offset += text.length;
    return out;
  }

  /** The last record, when the input does not end with a line break. */
  end(): ReadRecord[] {
    const out: ReadRecord[] = [];
    if (this.held) out.push(this.held);
    this.held = null;
    this.crAtEnd = false;
    // A quote that ended the input closes its field.
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false;
      this.inQuotes = false;
    }
    if (this.field !== '' || this.fields.length > 0 || this.recordQuoted) {
      const record = this.endRecord(this.offset, false);
      if (record) out.push(record);
    }
    return out;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.fieldQuoted = false;
  }

  /** Ends the record at `end` (after its line break, when it has one); null for a blank line. */
  private endRecord(end: number, lineBreak = true): ReadRecord | null {
    this.endField();
    const blank = this.fields.length === 1 && this.fields[0] === '' && !this.recordQuoted;
    const fields = this.fields;
    const line = this.recordLine;
    this.fields = [];
    this.recordQuoted = false;
    if (lineBreak) {
      this.line += 1;
      this.recordLine = this.line;
    }
    return blank ? null : { fields, line, end, nextLine: this.line };
  }
}

/** Every record of a whole text (a leading byte-order mark dropped), and whether a quote was left open. */
export function readCsv(input: string, options: { delimiter?: CsvDelimiter; firstLine?: number } = {}): { delimiter: CsvDelimiter; records: ReadRecord[]; unterminatedQuote: boolean } {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const reader = new CsvReader({ delimiter: options.delimiter ?? detectDelimiter(text), firstLine: options.firstLine });
  const records = [...reader.push(text), ...reader.end()];
  return { delimiter: reader.delimiter, records, unterminatedQuote: reader.unterminatedQuote };
}
