'use client';

import { useMemo, useState } from 'react';
import { parseCsv, type ParsedCsv } from '../../../../lib/csv';
import { guessMapping, looksLikeHeader } from './column-guess';
import { EMPTY_MAPPING, mapRecords, type ColumnMapping } from './contact-rows';

export interface CsvFile {
  name: string;
  /** The file as picked: what the import uploads. */
  source: File;
  parsed: ParsedCsv;
  /** The file was not UTF-8: some characters came out as replacement characters. */
  undecodable: boolean;
}

/** A first row without a header: the column whose first cell is an address. */
const addressColumn = (first: string[]): ColumnMapping => {
  const index = first.findIndex((cell) => /\S@\S/.test(cell));
  return { ...EMPTY_MAPPING, email: index >= 0 ? index : null };
};

/**
 * The CSV file an import reads: parsed in the browser for the preview (as the import will read it:
 * the same reader), its first row taken for a header unless it holds an address, its columns
 * guessed from their titles and changeable, and its rows mapped to contacts (or skipped with a
 * reason) as the mapping changes. The import itself uploads the file as it was picked.
 */
export function useCsvFile() {
  const [file, setFile] = useState<CsvFile | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [hasHeader, setHasHeader] = useState(true);
  const [mapping, setMapping] = useState<ColumnMapping>(EMPTY_MAPPING);

  const read = async (picked: File) => {
    setReading(true);
    setError(null);
    try {
      const text = await picked.text();
      const parsed = parseCsv(text);
      if (parsed.records.length === 0) {
        setError(`${picked.name} is empty.`);
        return;
      }
      const first = parsed.records[0]!.fields;
      const header = looksLikeHeader(first);
      setFile({ name: picked.name, source: picked, parsed, undecodable: text.includes('\uFFFD') });
      setHasHeader(header);
      setMapping(header ? guessMapping(first) : addressColumn(first));
    } catch {
      setError(`${picked.name} could not be read.`);
    } finally {
      setReading(false);
    }
  };

  const changeHeader = (header: boolean) => {
    setHasHeader(header);
    if (file) setMapping(header ? guessMapping(file.parsed.records[0]!.fields) : addressColumn(file.parsed.records[0]!.fields));
  };

  const view = useMemo(() => {
    if (!file) return null;
    const { records } = file.parsed;
    const first = records[0]!.fields;
    const columns = first.map((title, index) => ({ index, title: hasHeader && title.trim() ? title.trim() : `Column ${index + 1}`, sample: (records[hasHeader ? 1 : 0]?.fields[index] ?? '').trim() }));
    const data = hasHeader ? records.slice(1) : records;
    const mapped = mapping.email === null ? null : mapRecords(data, first.length, mapping);
    return { columns, dataRows: data.length, mapped };
  }, [file, hasHeader, mapping]);

  const clear = () => {
    setFile(null);
    setError(null);
    setMapping(EMPTY_MAPPING);
  };

  return { file, error, reading, read, hasHeader, changeHeader, mapping, setMapping, view, clear };
}
