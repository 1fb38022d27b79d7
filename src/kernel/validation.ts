import { z } from 'zod';
import { fromValidationIssues } from './errors.ts';
import { ULID_PATTERN } from './ids.ts';

/** The last millisecond of 9999-12-31: later instants have no ISO 8601 date and no locale can print them. */
export const LAST_RENDERABLE_MS = 253_402_300_799_999;

export const ulidSchema = z.string().regex(ULID_PATTERN, 'must be a ULID').meta({ example: '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D' });

/** An array of at most `max` entries that must not repeat (the contract's "no duplicates": 422). */
export const distinctArray = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .max(max)
    .refine((entries) => new Set(entries).size === entries.length, { message: 'must not repeat an entry' });

/**
 * A positive integer carried in a query string: "2" yes; "2.0", "1e1", "" no. Only digit strings
 * become numbers before the check, which OpenAPI documents as the integer it is.
 */
export const queryInteger = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z
      .int({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer' : undefined) })
      .min(min)
      .max(max),
  );

export const searchQuerySchema = z.object({
  q: z.string().max(200).optional().meta({ description: 'Case-insensitive substring search' }),
});

/**
 * `q` as a literal substring for Prisma's `contains`, which builds a LIKE pattern without
 * escaping: `%` and `_` would otherwise act as wildcards (and `\` as the escape).
 */
export const likeLiteral = (q: string) => q.replace(/[\\%_]/g, '\\$&');

/**
 * How deeply a request value may nest (objects and arrays): far deeper than any request shape,
 * and shallow enough for everything recursive downstream (JSON.stringify, Prisma, jsonb).
 */
export const MAX_NESTING_DEPTH = 32;

const TOO_DEEP = `must not nest deeper than ${MAX_NESTING_DEPTH} levels`;

/** The 422 of a value nested deeper than MAX_NESTING_DEPTH, at `path`. */
export const nestedTooDeeply = (path: PropertyKey[], location?: 'query' | 'params' | 'body') =>
  fromValidationIssues([{ path, message: TOO_DEEP }], location);

/**
 * Parses with a zod schema; a failure is the contract's 422 validation_failed. What the schema
 * accepts must also be storable and shallow, which `unstorableIn` checks.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, location?: 'query' | 'params' | 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromValidationIssues(result.error.issues.map(clipped), location);
  const unstorable = unstorableIn(result.data);
  if (unstorable) throw fromValidationIssues([unstorable], location);
  return result.data;
}

/** The most characters of the input a 422 echoes per key or message. */
const ECHO_MAX = 200;
const clip = (text: string) => (text.length > ECHO_MAX ? `${text.slice(0, ECHO_MAX)}…` : text);

/**
 * A zod issue with what it echoes of the input clipped: an unknown key may be megabytes long, and
 * zod's message for unknown keys lists every one of them.
 */
function clipped(issue: z.core.$ZodIssue) {
  return {
    path: issue.path.map((part) => (typeof part === 'string' ? clip(part) : part)),
    message: clip(issue.message),
    code: issue.code,
    keys: issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1).map(clip) : undefined,
  };
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * PostgreSQL text cannot hold U+0000, and neither text nor jsonb a lone UTF-16 surrogate (JSON
 * can carry one as "\ud800"; UTF-8 cannot encode it).
 */
function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain the NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain a lone surrogate (invalid Unicode)';
  return null;
}

type Visit = { value: unknown; parent: Visit | null; key: PropertyKey; depth: number };

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let at: Visit = visit; at.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The first string or key (in document order) that the database cannot store, or the first value
 * nested too deeply. Iterative on purpose: the value may be untrusted and arbitrarily deep.
 */
export function unstorableIn(root: unknown): { path: PropertyKey[]; message: string } | null {
  const pending: Visit[] = [{ value: root, parent: null, key: '', depth: 0 }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const problem = unstorableText(value);
      if (problem) return { path: pathOf(visit), message: problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_NESTING_DEPTH) return { path: pathOf(visit), message: TOO_DEEP };
    const children: Visit[] = [];
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++)
        children.push({ value: value[index], parent: visit, key: index, depth: depth + 1 });
    } else {
      for (const [key, inner] of Object.entries(value)) {
        const problem = unstorableText(key);
        if (problem) return { path: [...pathOf(visit), key], message: problem };
        children.push({ value: inner, parent: visit, key, depth: depth + 1 });
      }
    }
    for (let index = children.length - 1; index >= 0; index--) pending.push(children[index]!);
  }
  return null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is one of the characters it looks for.
const UNSTORABLE_CHARACTERS = /\u0000|\p{Surrogate}/gu;

/**
 * `value` with every string and key made storable: U+0000 and lone surrogates replaced by U+FFFD.
 * For text that arrives inside files (imported reports and spreadsheets), where refusing a whole
 * file for one such character would help nobody; the files' readers bound how deep it nests.
 */
export function storableCopy<T>(value: T): T {
  if (typeof value === 'string') return value.replace(UNSTORABLE_CHARACTERS, '\uFFFD') as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(storableCopy) as T;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [storableCopy(key), storableCopy(inner)])) as T;
}

/**
 * A PATCH body must change something: a refinement for `z.strictObject` patches (an empty body
 * answers 422 validation_failed).
 */
export const someFieldOf = (fields: string[]) =>
  [
    (patch: Record<string, unknown>) => Object.values(patch).some((value) => value !== undefined),
    { message: `Provide at least one of ${fields.join(', ')}` },
  ] as const;
