import { describe, expect, it } from 'vitest';
import { splitAddresses } from '@/app/(dashboard)/suppressions/address-list';
import { uploadAddresses, type SendBatch } from '@/app/(dashboard)/suppressions/suppression-upload';
import { chunk } from '@/app/lib/chunk';

/** A failed tRPC call as the dashboard's client sees it: the server's envelope under `data`. */
const failure = (status: number, code: string, error: string) => Object.assign(new Error(error), { data: { envelope: { status, code, error } } });

describe('the addresses typed into the add dialog', () => {
  it('are split on lines, commas and semicolons, trimmed, without blanks or exact repeats', () => {
    expect(splitAddresses('')).toEqual([]);
    expect(splitAddresses(' \n ,; \r\n')).toEqual([]);
    expect(splitAddresses('  Ada@Example.com ')).toEqual(['Ada@Example.com']);
    expect(splitAddresses('ada@example.com, grace@example.org;linus@example.net\r\nnot-an-address\n\nada@example.com\nADA@example.com')).toEqual([
      'ada@example.com',
      'grace@example.org',
      'linus@example.net',
      'not-an-address',
      // Only exact repeats are dropped: what counts as the same address is the server's call.
      'ADA@example.com',
    ]);
  });
});

describe('chunk', () => {
  it('splits in order into runs of the size, the last shorter', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
    expect(() => chunk([1], 1.5)).toThrow(RangeError);
  });
});

/** A fake `suppressions.batch`: every address added unless `answer` says otherwise; records what it was sent. */
function fakeServer(answer: (emails: string[], call: number) => Awaited<ReturnType<SendBatch>> | Error = (emails) => ({ added: emails.length, alreadySuppressed: 0, invalid: [] })) {
  const calls: string[][] = [];
  const send: SendBatch = async (emails) => {
    calls.push(emails);
    const result = answer(emails, calls.length);
    if (result instanceof Error) throw result;
    return result;
  };
  return { send, calls };
}

const addresses = (count: number) => Array.from({ length: count }, (_, index) => `a${index}@example.com`);

describe('adding many addresses', () => {
  it('sends 1,000 at a time, one batch after the other, and adds up the answers', async () => {
    const { send, calls } = fakeServer((emails, call) =>
      call === 1 ? { added: emails.length - 2, alreadySuppressed: 1, invalid: [{ email: 'x', error: '"x" is not a valid email address' }] } : { added: emails.length, alreadySuppressed: 0, invalid: [] },
    );
    const progress: number[] = [];
    const outcome = await uploadAddresses(addresses(2_500), send, { onProgress: (p) => progress.push(p.done) });
    expect(calls.map((batch) => batch.length)).toEqual([1_000, 1_000, 500]);
    expect(calls.flat()).toEqual(addresses(2_500));
    expect(progress).toEqual([0, 1_000, 2_000, 2_500]);
    expect(outcome).toEqual({
      total: 2_500,
      done: 2_500,
      added: 2_498,
      alreadySuppressed: 1,
      invalid: [{ email: 'x', error: '"x" is not a valid email address' }],
      failure: null,
      cancelled: false,
    });
  });

  it('stops at a batch refused whole, keeping what was done and the error', async () => {
    const error = failure(503, 'SERVICE_UNAVAILABLE', 'The database is not available');
    const { send, calls } = fakeServer((emails, call) => (call === 2 ? error : { added: emails.length, alreadySuppressed: 0, invalid: [] }));
    const outcome = await uploadAddresses(addresses(2_500), send);
    expect(calls).toHaveLength(2);
    expect(outcome).toMatchObject({ total: 2_500, done: 1_000, added: 1_000, failure: error, cancelled: false });
  });

  it('sends a batch too large again in two halves', async () => {
    const { send, calls } = fakeServer((emails) => (emails.length > 300 ? failure(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large') : { added: emails.length, alreadySuppressed: 0, invalid: [] }));
    const outcome = await uploadAddresses(addresses(1_000), send);
    expect(calls.map((batch) => batch.length)).toEqual([1_000, 500, 250, 250, 500, 250, 250]);
    expect(outcome).toMatchObject({ done: 1_000, added: 1_000, failure: null });
  });

  it('stops before the next batch when asked (the page went away)', async () => {
    let stop = false;
    const { send, calls } = fakeServer((emails) => {
      stop = true;
      return { added: emails.length, alreadySuppressed: 0, invalid: [] };
    });
    const outcome = await uploadAddresses(addresses(2_500), send, { shouldStop: () => stop });
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({ done: 1_000, added: 1_000, failure: null, cancelled: true });
  });
});
