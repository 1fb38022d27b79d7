export const SNAPSHOT_GRAPHEMES = 240;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Clips a string snapshot to 240 user-perceived characters, never splitting a grapheme. */
export function clipSnapshot(text: string, limit = SNAPSHOT_GRAPHEMES): { text: string; truncated: boolean } {
  // Fast path: fewer UTF-16 units than the limit cannot hold more graphemes than the limit.
  if (text.length <= limit) return { text, truncated: false };
  let clipped = '';
  let count = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (count === limit) return { text: clipped, truncated: true };
    clipped += segment;
    count += 1;
  }
  return { text, truncated: false };
}

export type Change = {
  field: string;
  from: string | number | boolean | null;
  to: string | number | boolean | null;
  truncated?: true;
};

/** One entry of the shared `changes` bucket, with string values clipped. */
export function change(field: string, from: Change['from'], to: Change['to']): Change {
  const clip = (value: Change['from']) => (typeof value === 'string' ? clipSnapshot(value) : { text: value, truncated: false });
  const a = clip(from);
  const b = clip(to);
  const entry: Change = { field, from: a.text, to: b.text };
  if (a.truncated || b.truncated) entry.truncated = true;
  return entry;
}

type Scalar = Change['from'];

/**
 * The `changes` bucket of an `*.updated` event: one entry per field of `patch` that is present
 * and differs from `before` (both in their response representation, so dates are epoch ms).
 */
export function changesBetween<K extends string>(before: Record<K, Scalar>, patch: Partial<Record<K, Scalar | undefined>>): Change[] {
  return (Object.keys(patch) as K[])
    .filter((field) => patch[field] !== undefined && patch[field] !== before[field])
    .map((field) => change(field, before[field], patch[field] as Scalar));
}
