import { newId } from '../../../src/kernel/ids.ts';
import type { Operation } from './operations.ts';
import type { Random } from './random.ts';
import { attackedBody, hostileScalar, nested, type SampleContext, sample } from './values.ts';
import type { WalkRequest } from './walk.ts';

const MALFORMED_PATH_VALUES = [
  '%FF',
  '%E0%A4%A',
  '%ED%A0%80',
  '%00',
  'AB%00',
  '%2e%2e',
  '..',
  '%2F',
  'x'.repeat(3000),
  '%C0%AF',
  'null',
  '-1',
  '1e999',
  '%20',
  '%F0%9F%9A%80',
];
const MALFORMED_QUERY_VALUES = [
  '%FF',
  '%00',
  '',
  '-1',
  '0',
  '2.5',
  '1e999',
  'NaN',
  'x'.repeat(3000),
  '%ED%A0%80',
  'a%2Cb%2Cc',
  ',,,,',
  'true',
  '[]',
  '%7B%7D',
];

/** The first is well-formed: one file part. */
const MULTIPART_BODIES = [
  '--hostile\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nnot an image\r\n--hostile--\r\n',
  '--hostile\r\nContent-Disposition: form-data; name="file"\r\n\r\ntruncated',
  '--other\r\n\r\n',
  '',
];

/** A small file of each raw type an import takes: the first of a type is what its well-formed request sends. */
const RAW_SAMPLES: Record<string, string[]> = {
  'text/csv': ['title,suite_path,steps\nHostile case,Walk > Imported,Open\n'],
  'application/xml': [
    '<?xml version="1.0"?><testsuite name="walk" tests="1"><testcase classname="walk" name="reaches the import"/></testsuite>',
    '<suite><name>Walk</name><sections><section><name>A</name><cases><case><title>T</title></case></cases></section></sections></suite>',
  ],
  'application/json': [
    '{"results":{"tool":{"name":"walk"},"summary":{"tests":1,"passed":1,"failed":0,"pending":0,"skipped":0,"other":0,"start":0,"stop":1},"tests":[{"name":"reaches the import","status":"passed","duration":1}]}}',
  ],
};
RAW_SAMPLES['text/xml'] = RAW_SAMPLES['application/xml']!;

const LAUGHS = `<!DOCTYPE l [<!ENTITY l0 "lol">${Array.from({ length: 9 }, (_, index) => `<!ENTITY l${index + 1} "${`&l${index};`.repeat(10)}">`).join('')}]>`;

/** Files an import's parser must refuse (or take) without a 5xx, whatever its type claims. */
const HOSTILE_FILES = [
  () => `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`,
  () => `<?xml version="1.0"?>${LAUGHS}<testsuite name="&l9;"><testcase name="&l9;"/></testsuite>`,
  () => '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><testsuite name="&e;"/>',
  () => `<testsuite name="${'x'.repeat(2_000_000)}"/>`,
  () => '<testsuite><testcase name="unclosed">',
  () => nested(100_000),
  () => `{"results":{"tests":[${new Array(50_000).fill('{"name":"t","status":"passed"}').join(',')}]}}`,
  () => `"${'\\ud800'.repeat(1000)}"`,
  () => `title\n"${'unclosed quote '.repeat(1000)}`,
  () => `${Array.from({ length: 20_000 }, (_, index) => `c${index}`).join(',')}\n1`,
  () => 'title\n\u0000\u0000\ufeff\r\r\n',
  () => '',
];

const INVALID_UTF8 = Buffer.from([0xff, 0xc0, 0xed, 0xa0, 0x80, 0xf8]);

/** Sets one hostile header (a credential, organization, language, origin, address or Accept of garbage); says which. */
export function withHostileHeader(headers: Record<string, string>, random: Random): string {
  const [name, value] = random.pick([
    ['X-Organization-Id', random.pick(['', 'nonsense', newId(), 'x'.repeat(500)])],
    ['Accept-Language', random.pick(['', 'es;q=abc', '*', 'x'.repeat(1000), 'es, en;q=0.5, zz'])],
    ['Authorization', random.pick(['Bearer', 'Bearer ', 'Basic !!!', `Bearer tcms_${'x'.repeat(300)}`])],
    ['Cookie', random.pick(['tcms_session=', 'tcms_session=%FF', '=;=;', `tcms_session=${'x'.repeat(500)}`])],
    ['Origin', 'https://evil.example'],
    ['X-Forwarded-For', random.pick(['', 'unknown', 'x'.repeat(2000), '::1, 10.0.0.1, garbage', '999.999.999.999'])],
    ['Accept', random.pick(['text/html', 'application/xml', '*/*;q=abc', ''])],
  ] as const);
  headers[name] = value;
  return `${name}=${value.slice(0, 30)}`;
}

const encode = (value: unknown) => encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value));

/** A form body of `value`'s entries, with one attack when hostile: form fields are all text, so the attacks are on text and keys. */
function formBody(value: unknown, random: Random, hostile: boolean): { text: string; attack: string } {
  const entries = Object.entries((value ?? {}) as Record<string, unknown>).map(([key, inner]): [string, string] => [
    key,
    typeof inner === 'string' ? inner : JSON.stringify(inner),
  ]);
  const attack = hostile
    ? random.pick(['missing field', 'repeated field', 'oversize value', 'bad percent-encoding', 'nested keys', 'none'] as const)
    : 'none';
  const text = () => entries.map(([key, inner]) => `${encodeURIComponent(key)}=${encodeURIComponent(inner)}`).join('&');
  const someKey = () => encodeURIComponent(entries.length > 0 ? random.pick(entries)[0] : 'token');
  switch (attack) {
    case 'missing field':
      entries.splice(random.int(entries.length), 1);
      return { text: text(), attack };
    case 'repeated field':
      return { text: `${text()}&${someKey()}=again`, attack };
    case 'oversize value':
      return { text: `${text()}&${someKey()}=${'x'.repeat(random.pick([10_000, 1_000_000]))}`, attack };
    case 'bad percent-encoding':
      return { text: `${text()}&${random.pick(['%FF', '%E0%A4%A', '%00', '%ED%A0%80'])}=${random.pick(['%FF', '%', '%zz'])}`, attack };
    case 'nested keys':
      return { text: `${text()}&a[b][c]=1&__proto__[polluted]=1&${'a['.repeat(200)}=1`, attack };
    default:
      return { text: text(), attack };
  }
}

/**
 * One request to the operation. A well-formed one (`hostile` false) is its first caller's, with
 * real path values, a sampled body and, for an upload, one small file of the type it takes: it
 * reaches the operation's validation or service whatever the seed. A hostile one varies the
 * caller, path, query, headers, body and its encoding.
 */
export function buildRequest(
  operation: Operation,
  context: SampleContext,
  pathValues: Record<string, string[]>,
  address: string,
  hostile: boolean,
): WalkRequest {
  const { random } = context;
  const notes: string[] = hostile ? [] : ['well-formed'];
  const callers = operation.callers;
  const [callerName, caller] =
    callers.length === 0
      ? ['none', undefined]
      : hostile
        ? random.pick([...callers, ...callers, ['none', undefined] as const])
        : callers[0]!;
  const headers: Record<string, string> = { 'X-Forwarded-For': address, ...operation.headers, ...caller?.headers };

  let path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (hostile && random.chance(0.15)) {
      const malformed = random.pick(MALFORMED_PATH_VALUES);
      notes.push(`path ${name}=${malformed.slice(0, 40)}`);
      return malformed;
    }
    // Segment by segment: an asset's key is a path of its own.
    return random.pick(pathValues[name]!).split('/').map(encodeURIComponent).join('/');
  });

  const query: string[] = [];
  const queryParameters = operation.parameters.filter((each) => each.in === 'query');
  for (const parameter of queryParameters) {
    if (!parameter.required && random.chance(0.5)) continue;
    const value = sample(parameter.schema, context);
    for (const each of Array.isArray(value) ? value : [value]) query.push(`${parameter.name}=${encode(each)}`);
  }
  if (hostile && random.chance(0.25)) {
    const name = random.pick([...queryParameters.map((each) => each.name), 'unknown', 'a[b]', '__proto__']);
    const value = random.pick(MALFORMED_QUERY_VALUES);
    // Long values are not repeated: past Node's 16 KiB header limit the HTTP parser answers, not the app.
    const repeat = value.length > 100 ? 1 : random.pick([1, 1, 2, 60]);
    for (let index = 0; index < repeat; index++) query.push(`${encodeURIComponent(name)}=${value}`);
    notes.push(`query ${name}=${value.slice(0, 40)}${repeat > 1 ? ` ×${repeat}` : ''}`);
  }
  if (query.length > 0) path += `?${query.join('&')}`;

  if (hostile && operation.method !== 'get' && random.chance(0.15)) {
    headers['Idempotency-Key'] = random.pick(['', ' ', 'k'.repeat(256), `key-${random.int(20)}`, 'tab\tkey']);
    notes.push(`Idempotency-Key=${headers['Idempotency-Key'].slice(0, 20)}`);
  }
  if (hostile && random.chance(0.05)) notes.push(withHostileHeader(headers, random));

  let body: string | Buffer | undefined;
  // A body where none goes only under /api/v1, whose JSON parser reads every one: a route that reads
  // none answers first, and the connection closes under a client still sending megabytes.
  if (operation.body || (hostile && operation.path.startsWith('/api/v1/') && random.chance(0.2))) {
    const value = operation.body && (!hostile || random.chance(0.9)) ? sample(operation.body.schema, context) : hostileScalar(random);
    if (operation.body?.encoding === 'form') {
      const form = formBody(value, random, hostile);
      body = form.text;
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      notes.push(`form attack: ${form.attack}`);
    } else {
      // Before the attack, which changes the value in place.
      const sampled = JSON.stringify(value);
      const attacked = hostile && random.chance(0.8) ? attackedBody(value, random) : { text: sampled, attack: 'none' };
      // JSON-RPC takes a batch of messages in one body: each tool call of it counts against the burst limit.
      const batch = hostile && operation.envelopes.includes('jsonrpc') && random.chance(0.1);
      body = batch ? `[${[attacked.text, ...new Array(random.pick([1, 10, 199])).fill(sampled)].join(',')}]` : attacked.text;
      headers['Content-Type'] = 'application/json';
      notes.push(`body attack: ${attacked.attack}`);
    }
    if (hostile && random.chance(0.25)) {
      const encoding = random.pick([
        'gzip',
        'br',
        'deflate',
        'compress',
        'identity',
        'invalid utf-8',
        'charset',
        'content type',
        'truncated',
        'empty',
        'bom',
        'over the limit',
      ]);
      notes.push(`encoding: ${encoding}`);
      switch (encoding) {
        case 'gzip':
        case 'br':
        case 'deflate':
        case 'compress':
        case 'identity':
          headers['Content-Encoding'] = encoding;
          break;
        case 'invalid utf-8':
          body = Buffer.concat([Buffer.from(body.slice(0, -1)), INVALID_UTF8, Buffer.from(body.slice(-1))]);
          break;
        case 'charset':
          headers['Content-Type'] =
            `${headers['Content-Type']}; charset=${random.pick(['utf-16le', 'utf-16', 'latin1', 'utf-32', 'ascii', 'nonsense', '"utf-8"'])}`;
          break;
        case 'content type':
          headers['Content-Type'] = random.pick([
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/json',
            'multipart/form-data; boundary=x',
            'multipart/form-data',
            'application/json-patch+json',
            'application/*',
            '',
          ]);
          break;
        case 'truncated':
          body = body.slice(0, Math.max(1, random.int(body.length)));
          break;
        case 'empty':
          body = '';
          break;
        case 'bom':
          body = `\ufeff${body}`;
          break;
        case 'over the limit':
          body = `{"padding":"${'x'.repeat(10 * 1024 * 1024)}"}`;
          break;
      }
    }
  }
  if (operation.upload) {
    const [rawType] = operation.upload.rawTypes;
    if (!hostile) {
      headers['Content-Type'] = 'multipart/form-data; boundary=hostile';
      body = rawType ? multipartFile(RAW_SAMPLES[rawType]![0]!, rawType) : MULTIPART_BODIES[0];
      notes.push('one file part');
    } else if (rawType && random.chance(0.3)) {
      const type = random.pick(operation.upload.rawTypes);
      const file = random.chance(0.3) ? random.pick(RAW_SAMPLES[type]!) : random.pick(HOSTILE_FILES)();
      const bytes = random.chance(0.1) ? Buffer.concat([Buffer.from(file), INVALID_UTF8]) : Buffer.from(file);
      const asPart = random.chance(0.3);
      headers['Content-Type'] = asPart ? 'multipart/form-data; boundary=hostile' : type;
      if (random.chance(0.1)) headers['Content-Encoding'] = 'gzip';
      body = asPart ? multipartFile(bytes, type) : bytes;
      notes.push(`${asPart ? 'file part' : 'raw body'} ${type}: ${file.slice(0, 60)}`);
    } else if (random.chance(0.3)) {
      headers['Content-Type'] = 'multipart/form-data; boundary=hostile';
      body = random.pick(MULTIPART_BODIES);
      notes.push('multipart garbage');
    }
  }

  return {
    operation: operation.name,
    method: operation.method,
    url: path,
    headers,
    body,
    wellFormed: !hostile,
    envelopes: operation.envelopes,
    description: `${operation.name} → ${operation.method.toUpperCase()} ${path.slice(0, 200)} as ${callerName}; ${notes.join('; ')}; body ${body === undefined ? 'none' : String(body).slice(0, 200)}`,
  };
}

const multipartFile = (content: string | Buffer, type: string) =>
  Buffer.concat([
    Buffer.from(
      `--hostile\r\nContent-Disposition: form-data; name="file"; filename="walk.${type.split('/')[1]}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from('\r\n--hostile--\r\n'),
  ]);
