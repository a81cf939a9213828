// The bounds of the suppression API, declared once; the wire schemas refer to them. Imports nothing.

export const SUPPRESSION_LIMITS = {
  /** Addresses per `POST /suppressions/batch` (spec: up to 1,000). */
  batch: 1_000,
  /** `GET /suppressions` page size (as the spec's contact list: 1-1000, default 50). */
  pageMax: 1_000,
  pageDefault: 50,
  /** A search term longer than any address matches nothing, so it is refused. */
  searchChars: 254,
  /** Rows the CSV export reads per query: one chunk is all it holds in memory. */
  exportChunkRows: 5_000,
} as const;
