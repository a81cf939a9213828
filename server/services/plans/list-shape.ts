/** A batch is list-shaped when at least this many of its items carry one message. */
export const LIST_SHAPED_MIN_ITEMS = 10;

/** What makes two batch items the same message: one template, or the same subject and bodies. */
export type MessageShape = { templateId: string } | { subject: string; html?: string; text?: string };

/** How many times each message was seen: nested maps, so no key is built by copying a body. */
type Tally = Map<string, Map<string, Map<string, number>>>;

function countOf(tally: Tally, first: string, second: string, third: string): number {
  let bySecond = tally.get(first);
  if (!bySecond) tally.set(first, (bySecond = new Map()));
  let byThird = bySecond.get(second);
  if (!byThird) bySecond.set(second, (byThird = new Map()));
  const count = (byThird.get(third) ?? 0) + 1;
  byThird.set(third, count);
  return count;
}

/**
 * Whether a batch is list-shaped: the same message to many people in one call, which is how a
 * newsletter looks when it avoids the broadcasts API. Every item of such a batch counts its
 * recipients against the list-send allowance; a batch of distinct messages (receipts, codes) is
 * transactional. The subjects are counted first: only items under a subject seen often enough can
 * be one message seen often enough, so the bodies (kilobytes, hashed as map keys) of a batch of
 * receipts are never read.
 */
export function isListShaped(shapes: MessageShape[]): boolean {
  if (shapes.length < LIST_SHAPED_MIN_ITEMS) return false;
  const templates = new Map<string, number>();
  const subjects = new Map<string, number>();
  for (const shape of shapes) {
    if (!('templateId' in shape)) tallied(subjects, shape.subject);
    else if (tallied(templates, shape.templateId) >= LIST_SHAPED_MIN_ITEMS) return true;
  }
  const messages: Tally = new Map();
  for (const shape of shapes) {
    if ('templateId' in shape || subjects.get(shape.subject)! < LIST_SHAPED_MIN_ITEMS) continue;
    if (countOf(messages, shape.subject, shape.html ?? '', shape.text ?? '') >= LIST_SHAPED_MIN_ITEMS) return true;
  }
  return false;
}

function tallied(counts: Map<string, number>, key: string): number {
  const count = (counts.get(key) ?? 0) + 1;
  counts.set(key, count);
  return count;
}
