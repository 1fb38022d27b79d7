import { newId } from '../../../src/kernel/ids.ts';
import { MAX_NESTING_DEPTH } from '../../../src/kernel/validation.ts';
import { uniqueEmail } from '../app.ts';
import type { Random } from './random.ts';

/** The part of JSON Schema the walks sample from (OpenAPI's, MCP's tool inputs, GraphQL inputs converted). */
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: readonly unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
};

export type SampleContext = {
  random: Random;
  ulids: string[];
  resolve(ref: string): JsonSchema;
  /** Real values for strings by the name of their property (`projectId`, `runUlid`): they name the fixture's things. */
  valuesByName?: Record<string, string[]>;
};

/** A receiver address that is public and needs no DNS lookup: webhooks are never sent from the walks. */
export const PUBLIC_RECEIVER_URL = 'https://93.184.215.14/hostile-hook';

/** A plausible value of `schema`: real ULIDs where a ULID goes, so that requests reach the services. */
export function sample(schema: JsonSchema, context: SampleContext, depth = 0): unknown {
  const { random } = context;
  if (schema.$ref) return sample(context.resolve(schema.$ref), context, depth);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return sample(random.pick(options), context, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sample(part, context, depth)));
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        if (!schema.required?.includes(key) && !random.chance(0.5)) continue;
        const sampled = sample(property, context, depth + 1);
        const named = context.valuesByName?.[key];
        value[key] = typeof sampled === 'string' && named && random.chance(0.9) ? random.pick(named) : sampled;
      }
      return value;
    }
    case 'array': {
      const length = Math.max(schema.minItems ?? 0, random.int(3));
      return depth > 6 ? [] : Array.from({ length }, () => sample(schema.items ?? {}, context, depth + 1));
    }
    case 'string':
      return sampleString(schema, context);
    case 'integer':
    case 'number': {
      const minimum = schema.minimum ?? -Number.MAX_SAFE_INTEGER;
      const maximum = schema.maximum ?? Number.MAX_SAFE_INTEGER;
      // The bounds themselves, or a small value above the minimum.
      return random.chance(0.3) ? random.pick([minimum, maximum]) : Math.max(minimum, 0) + random.int(1000);
    }
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    default:
      return hostileScalar(random);
  }
}

function sampleString(schema: JsonSchema, { random, ulids }: SampleContext): string {
  if (schema.format === 'email') return uniqueEmail('hostile');
  if (schema.format === 'uri') return PUBLIC_RECEIVER_URL;
  if (schema.pattern?.includes('{26}')) return random.chance(0.8) ? random.pick(ulids) : newId();
  if (schema.pattern?.startsWith('^staging')) return `staging/${newId()}/${newId()}`;
  if (schema.pattern?.startsWith('^[A-Z]')) return `H${random.int(1e8)}`;
  if (schema.pattern?.startsWith('^[a-z0-9]')) return `env-${random.int(1e6)}`;
  if (schema.pattern === '^\\d+$') return String(1 + random.int(5));
  const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 1 + random.int(12)));
  return 'hostile text '.repeat(2).slice(0, length);
}

export const hostileScalar = (random: Random): unknown =>
  random.pick([
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 31,
    -(2 ** 31) - 1,
    8.64e15 + 1,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    2 ** 53 + 1,
    true,
    false,
    null,
    '',
    ' ',
    'null',
    '0',
    '[]',
    '{}',
    'true',
    [],
    {},
    [null],
    { '': '' },
  ]);

export const BAD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '\u{1F680}',
  '\u202e',
  '\uffff',
  '%00',
  '\\',
  '"',
  "'; DROP TABLE users; --",
  '<script>',
];

/** A JSON text spliced into a body where its marker string stands (deep nesting, raw escapes). */
type Fragments = Map<string, string>;
const spliced = (fragments: Fragments, text: string) => {
  const marker = `@@fragment-${fragments.size}@@`;
  fragments.set(`"${marker}"`, text);
  return marker;
};

export const nested = (depth: number, inner = '') => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;

/** Every position in a (small, sampled) value: the paths of its objects, arrays and leaves. */
export function positionsOf(root: unknown): Array<Array<string | number>> {
  const positions: Array<Array<string | number>> = [];
  const pending: Array<{ value: unknown; path: Array<string | number> }> = [{ value: root, path: [] }];
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    positions.push(entry.path);
    if (entry.value && typeof entry.value === 'object') {
      for (const [key, inner] of Object.entries(entry.value)) {
        pending.push({ value: inner, path: [...entry.path, Array.isArray(entry.value) ? Number(key) : key] });
      }
    }
  }
  return positions;
}

export function replaceAt(root: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  let parent = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path.at(-1)!] = replacement;
  return root;
}

const isPlainObject = (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value);
const valueAt = (root: unknown, path: Array<string | number>) =>
  path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);

const BODY_ATTACKS = ['wrong type', 'oversize string', 'oversize array', 'deep nesting', 'unknown keys', 'bad text', 'bad key'] as const;

/**
 * The sampled value with one attack at a random position, as JSON text. `within` narrows the
 * positions to those under a path (a GraphQL request's variables, not its query).
 */
export function attackedBody(value: unknown, random: Random, within: Array<string | number> = []): { text: string; attack: string } {
  const fragments: Fragments = new Map();
  const attack = random.pick(BODY_ATTACKS);
  const inside = (path: Array<string | number>) => within.every((key, index) => path[index] === key);
  const positions = positionsOf(value).filter(inside);
  const position = random.pick(positions.length > 0 ? positions : [within]);
  const targetObject = () => {
    const objects = positions.filter((path) => isPlainObject(valueAt(value, path)));
    return objects.length > 0 ? (valueAt(value, random.pick(objects)) as Record<string, unknown>) : undefined;
  };
  switch (attack) {
    case 'wrong type':
      value = replaceAt(value, position, hostileScalar(random));
      break;
    case 'oversize string':
      value = replaceAt(value, position, 'x'.repeat(random.pick([201, 2001, 10_001, 100_000, 1_000_000])));
      break;
    case 'oversize array': {
      const length = random.pick([51, 101, 201, 501, 5001, 100_000, 300_000]);
      const item = random.pick(['01JD3Z8Q4V5W6X7Y8Z9A0B1C2D', 0, 'x', null, {}]);
      value = replaceAt(value, position, spliced(fragments, `[${new Array(length).fill(JSON.stringify(item)).join(',')}]`));
      break;
    }
    case 'deep nesting': {
      const depth = random.pick([MAX_NESTING_DEPTH - 2, MAX_NESTING_DEPTH + 1, 1000, 100_000]);
      const inner = random.pick(['', '"x"', '{}', '{"a":1}']);
      value = replaceAt(
        value,
        position,
        spliced(fragments, random.chance(0.5) ? nested(depth, inner) : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
      );
      break;
    }
    case 'unknown keys': {
      const target = targetObject();
      if (target)
        target[random.pick(['unknownKey', 'constructor', 'prototype', 'ulid', 'orgId', 'createdAt', '$where', ''])] = hostileScalar(random);
      const text = JSON.stringify(value ?? null);
      // Prototype pollution attempts, spliced as text (an object literal would set the prototype).
      return { text: text.startsWith('{') && text !== '{}' ? `{"__proto__":{"polluted":true},${text.slice(1)}` : text, attack };
    }
    case 'bad text':
      value = replaceAt(
        value,
        position,
        random.chance(0.5)
          ? random.pick(BAD_TEXT)
          : spliced(fragments, random.pick(['"\\ud800"', '"a\\u0000"', '"\\udfff\\ud800"', '"\\uDBFF"'])),
      );
      break;
    case 'bad key': {
      const target = targetObject();
      if (target) target[random.pick(BAD_TEXT)] = 'x';
      else value = { [random.pick(BAD_TEXT)]: value };
      break;
    }
  }
  let text = JSON.stringify(value ?? null);
  for (const [marker, fragment] of fragments) text = text.replace(marker, fragment);
  return { text, attack };
}
