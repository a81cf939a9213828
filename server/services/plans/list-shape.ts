/** A batch is list-shaped when at least this many of its items carry one message. */
export const LIST_SHAPED_MIN_ITEMS = 10;

/** What makes two batch items the same message: one template, or the same subject and bodies. */
export type MessageShape = { templateId: string } | { subject: string; html?: string; text?: string };

const keyOf = (shape: MessageShape) => ('templateId' in shape ? `template:${shape.templateId}` : JSON.stringify([shape.subject, shape.html ?? '', shape.text ?? '']));

/**
 * Whether a batch is list-shaped: the same message to many people in one call, which is how a
 * newsletter looks when it avoids the broadcasts API. Every item of such a batch counts its
 * recipients against the list-send allowance; a batch of distinct messages (receipts, codes) is
 * transactional.
 */
export function isListShaped(shapes: MessageShape[]): boolean {
  if (shapes.length < LIST_SHAPED_MIN_ITEMS) return false;
  const counts = new Map<string, number>();
  for (const shape of shapes) {
    const key = keyOf(shape);
    const count = (counts.get(key) ?? 0) + 1;
    if (count >= LIST_SHAPED_MIN_ITEMS) return true;
    counts.set(key, count);
  }
  return false;
}
