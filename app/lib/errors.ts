/** The `{status, code, error}` envelope the tRPC error formatter attaches to every error. */
export interface ErrorEnvelope {
  status: number;
  code: string;
  error: string;
}

function envelopeOf(error: unknown): ErrorEnvelope | null {
  if (typeof error !== 'object' || error === null || !('data' in error)) return null;
  const data = (error as { data?: unknown }).data;
  if (typeof data !== 'object' || data === null || !('envelope' in data)) return null;
  const envelope = (data as { envelope?: unknown }).envelope;
  if (typeof envelope !== 'object' || envelope === null) return null;
  const { status, code, error: message } = envelope as Partial<ErrorEnvelope>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return { status: typeof status === 'number' ? status : 0, code, error: message };
}

/** What to tell a person about a failed request: the server's own message when there is one. */
export function describeError(error: unknown): { code: string | null; message: string } {
  const envelope = envelopeOf(error);
  if (envelope) return { code: envelope.code, message: envelope.error };
  if (error instanceof TypeError) return { code: null, message: 'Could not reach the server. Check your connection and try again.' };
  if (error instanceof Error && error.message) return { code: null, message: error.message };
  return { code: null, message: 'Something went wrong. Please try again.' };
}
