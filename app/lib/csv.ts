/** The separators a CSV file may use: spreadsheets in much of Europe write `;`, some tools a tab. */
export const CSV_DELIMITERS = [',', ';', '\t'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];

/** One record of the file: its fields, and the line of the file it starts on (1-based). */
export interface CsvRecord {
  fields: string[];
  line: number;
}

export interface ParsedCsv {
  delimiter: CsvDelimiter;
  /** Every record, the header included; blank lines are left out. */
  records: CsvRecord[];
  /** A quoted field was still open at the end of the file: its record swallowed the rest. */
  unterminatedQuote: boolean;
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
 * A CSV file as written by spreadsheets and databases (RFC 4180, leniently): fields in double
 * quotes may hold the separator, line breaks and doubled quotes (`""`); lines end in CRLF, LF or
 * CR; a leading byte-order mark is dropped. Lenient where files in the wild differ: spaces before
 * an opening quote are ignored, and a quote inside an unquoted field is kept as text. Values are
 * not trimmed; a blank line is no record.
 */
export function parseCsv(input: string, options: { delimiter?: CsvDelimiter } = {}): ParsedCsv {
  const text = input.startsWith(BOM) ? input.slice(1) : input;
  const delimiter = options.delimiter ?? detectDelimiter(text);
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  /** Whether the current field opened with a quote (so `"" ` is a value, not a blank line). */
  let fieldQuoted = false;
  let recordQuoted = false;
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;

  const endField = () => {
    fields.push(field);
    field = '';
    fieldQuoted = false;
  };
  const endRecord = () => {
    endField();
    const blank = fields.length === 1 && fields[0] === '' && !recordQuoted;
    if (!blank) records.push({ fields, line: recordLine });
    fields = [];
    recordQuoted = false;
  };

  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 1;
        } else {
          inQuotes = false;
        }
      } else if (char === '\r' || char === '\n') {
        // A line break inside quotes belongs to the value, as a plain \n whatever the file uses.
        if (char === '\r' && text[i + 1] === '\n') i += 1;
        field += '\n';
        line += 1;
      } else {
        field += char;
      }
    } else if (char === '"' && !fieldQuoted && field.trim() === '') {
      inQuotes = true;
      fieldQuoted = true;
      recordQuoted = true;
      field = '';
    } else if (char === delimiter) {
      endField();
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else {
      field += char;
    }
  }
  if (field !== '' || fields.length > 0 || recordQuoted) endRecord();
  return { delimiter, records, unterminatedQuote: inQuotes };
}
