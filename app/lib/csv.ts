import { readCsv, type CsvDelimiter, type CsvRecord } from '@/server/services/contact-imports/csv-records';

// The rules live with the import's reader (server/services/contact-imports/csv-records.ts), so the
// preview in the browser reads a file exactly as the server will.
export { CSV_DELIMITERS, detectDelimiter, type CsvDelimiter, type CsvRecord } from '@/server/services/contact-imports/csv-records';

export interface ParsedCsv {
  delimiter: CsvDelimiter;
  /** Every record, the header included; blank lines are left out. */
  records: CsvRecord[];
  /** A quoted field was still open at the end of the file: its record swallowed the rest. */
  unterminatedQuote: boolean;
}

/**
 * A whole CSV file as written by spreadsheets and databases (RFC 4180, leniently; a leading
 * byte-order mark dropped): see csv-records.ts for the rules.
 */
export function parseCsv(input: string, options: { delimiter?: CsvDelimiter } = {}): ParsedCsv {
  const { delimiter, records, unterminatedQuote } = readCsv(input, options);
  return { delimiter, records: records.map(({ fields, line }) => ({ fields, line })), unterminatedQuote };
}
