import { GRAPHQL_LIMITS } from '../../../schema/limits.ts';
import type { Caller } from '../app.ts';
import { documentText, type GraphQLOperation } from './graphql-operations.ts';
import { withHostileHeader } from './http-requests.ts';
import type { Random } from './random.ts';
import { attackedBody } from './values.ts';
import type { WalkRequest } from './walk.ts';

/** Literals a hostile document puts where a variable stood. */
const HOSTILE_LITERALS = [
  '"\\u0000"',
  '"\\ud800"',
  '"a\\udfff"',
  `"${'x'.repeat(100_000)}"`,
  `"""${'y'.repeat(100_000)}"""`,
  '99999999999999999999999',
  '-2147483649',
  '1e999',
  '0.5',
  'true',
  'null',
  '[]',
  `${'['.repeat(60)}${']'.repeat(60)}`,
  '{a: 1}',
  '{__proto__: {polluted: true}}',
  'NOT_AN_ENUM',
  '$undeclared',
];

/**
 * Documents a hostile request sends instead of the operation's: fragment cycles (through the
 * root type, mutual, and inside the field's own selection), too many aliases or directives or
 * tokens, unknown fields and arguments, broken syntax, several operations.
 */
function hostileDocument(operation: GraphQLOperation, random: Random): { document: string; operationName?: string; note: string } {
  const root = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' }[operation.kind];
  const withSelection = (selection: string, fragments = '') => documentText({ ...operation, selection }, fragments);
  const inField = (selection: string) => `${operation.head} { ${selection} }`;
  const attack = random.pick([
    'self cycle',
    'mutual cycle',
    'cycle in the field',
    'aliases',
    'directives',
    'tokens',
    'unknown field',
    'unknown argument',
    'syntax',
    'several operations',
    'operation name',
  ] as const);
  switch (attack) {
    case 'self cycle':
      return { document: withSelection('...A', ` fragment A on ${root} { ...A }`), note: attack };
    case 'mutual cycle':
      return {
        document: withSelection(
          `${operation.selection} ...A`,
          ` fragment A on ${root} { __typename ...B } fragment B on ${root} { ... on ${root} { ...A } }`,
        ),
        note: attack,
      };
    case 'cycle in the field':
      return {
        document: withSelection(
          inField('...F'),
          ` fragment F on ${operation.returnType} { __typename ...G } fragment G on ${operation.returnType} { ... on ${operation.returnType} { __typename ...F } }`,
        ),
        note: attack,
      };
    case 'aliases':
      return {
        document: withSelection(
          Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, index) => `a${index}: ${inField('__typename')}`).join(' '),
        ),
        note: attack,
      };
    case 'directives':
      return {
        document: withSelection(inField(`__typename ${'@include(if: true) '.repeat(GRAPHQL_LIMITS.directives + 1)}`)),
        note: attack,
      };
    case 'tokens':
      return { document: withSelection(inField('__typename '.repeat(GRAPHQL_LIMITS.tokens))), note: attack };
    case 'unknown field':
      return {
        document: withSelection(inField(random.pick(['nonexistent', '__schema { types { name } }', 'constructor', '__proto__']))),
        note: attack,
      };
    case 'unknown argument':
      return {
        document: withSelection(
          inField('__typename').replace(
            /^(\w+)(\(([^)]*)\))?/,
            (_match, name: string, _args, inner?: string) => `${name}(${inner ? `${inner}, ` : ''}bogus: 1)`,
          ),
        ),
        note: attack,
      };
    case 'syntax': {
      const document = documentText(operation);
      return { document: document.slice(0, 1 + random.int(document.length - 1)), note: attack };
    }
    case 'several operations':
      return { document: `${documentText(operation)} query Other { __typename }`, note: attack };
    case 'operation name':
      return { document: documentText(operation), operationName: random.pick(['Other', '', 'x'.repeat(1000), '__proto__']), note: attack };
  }
}

/** The document with one variable replaced by a hostile literal (its definition dropped). */
function withHostileLiteral(operation: GraphQLOperation, random: Random): { document: string; note: string } {
  const literal = random.pick(HOSTILE_LITERALS);
  if (operation.variables.length === 0)
    return {
      document: documentText(operation).replace('{ ', `{ ${operation.field}(bogus: ${literal}) `),
      note: `literal ${literal.slice(0, 30)}`,
    };
  const replaced = random.pick(operation.variables);
  const document = documentText({
    ...operation,
    variables: operation.variables.filter((variable) => variable !== replaced),
    selection: operation.selection.replace(new RegExp(`\\$${replaced.name}\\b`, 'g'), literal),
  });
  return { document, note: `literal ${replaced.name}=${literal.slice(0, 30)}` };
}

const ACCEPTS = [
  'application/graphql-response+json',
  'application/json',
  'text/event-stream',
  'multipart/mixed',
  'text/html',
  '*/*',
  'application/xml',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
  '',
];

/**
 * One request to the operation: well-formed (the owner's session, its document and sampled
 * variables; a subscription as Server-Sent Events), or with hostile variables, literals, a
 * hostile document, caller, headers or transport.
 */
export function buildGraphQLRequest(
  operation: GraphQLOperation,
  random: Random,
  callers: Record<string, Caller>,
  address: string,
  hostile: boolean,
): WalkRequest {
  const notes: string[] = hostile ? [] : ['well-formed'];
  const callerName = hostile ? random.pick(['session', 'session', 'token', 'oauth', 'none']) : 'session';
  const headers: Record<string, string> = {
    'X-Forwarded-For': address,
    'Content-Type': 'application/json',
    ...callers[callerName]?.headers,
  };
  if (operation.kind === 'subscription') headers.Accept = 'text/event-stream';
  let document = documentText(operation);
  let operationName: string | undefined;
  const variables = operation.sampleVariables(random);
  let bodyText: string | undefined;

  if (hostile) {
    const attack = random.pick(['variables', 'variables', 'literal', 'document', 'document', 'transport', 'headers'] as const);
    notes.push(attack);
    switch (attack) {
      case 'variables': {
        const attacked = attackedBody({ query: document, variables }, random, ['variables']);
        bodyText = attacked.text;
        notes.push(attacked.attack);
        break;
      }
      case 'literal': {
        const hostileLiteral = withHostileLiteral(operation, random);
        document = hostileLiteral.document;
        notes.push(hostileLiteral.note);
        break;
      }
      case 'document': {
        const hostileOne = hostileDocument(operation, random);
        ({ document, operationName } = hostileOne);
        notes.push(hostileOne.note);
        break;
      }
      case 'transport':
        switch (random.pick(['get', 'accept', 'content type', 'batch', 'not json', 'wrong shapes', 'over the limit'] as const)) {
          case 'get': {
            const query = new URLSearchParams({ query: document, variables: JSON.stringify(variables) }).toString();
            const { 'Content-Type': _bodyless, ...getHeaders } = headers;
            notes.push('GET');
            return request(operation, 'get', `/graphql?${query}`, getHeaders, undefined, hostile, notes, callerName);
          }
          case 'accept':
            headers.Accept = random.pick(ACCEPTS);
            notes.push(`Accept: ${headers.Accept}`);
            break;
          case 'content type':
            headers['Content-Type'] = random.pick(CONTENT_TYPES);
            notes.push(`Content-Type: ${headers['Content-Type']}`);
            break;
          case 'batch':
            bodyText = JSON.stringify(Array.from({ length: random.pick([2, 50]) }, () => ({ query: document, variables })));
            notes.push('batch');
            break;
          case 'not json':
            bodyText = random.pick([
              '{"query":',
              '',
              'null',
              '[]',
              '"query"',
              '{"query": "{ __typename }",}',
              `{"query":"${'\\'.repeat(10)}`,
            ]);
            notes.push('not JSON');
            break;
          case 'wrong shapes':
            bodyText = JSON.stringify(
              random.pick([
                { query: 5 },
                { query: document, variables: 'x' },
                { query: document, variables: [] },
                { query: [document] },
                { query: document, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } },
                { query: document, operationName: 7 },
              ]),
            );
            notes.push('wrong shapes');
            break;
          case 'over the limit':
            bodyText = JSON.stringify({ query: document, variables: { padding: 'x'.repeat(10 * 1024 * 1024) } });
            notes.push('over the limit');
            break;
        }
        break;
      case 'headers':
        notes.push(withHostileHeader(headers, random));
        break;
    }
  }
  const body = bodyText ?? JSON.stringify({ query: document, variables, ...(operationName !== undefined ? { operationName } : {}) });
  return request(operation, 'post', '/graphql', headers, body, hostile, notes, callerName);
}

function request(
  operation: GraphQLOperation,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  hostile: boolean,
  notes: string[],
  callerName: string,
): WalkRequest {
  return {
    operation: operation.name,
    method,
    url,
    headers,
    body,
    wellFormed: !hostile,
    envelopes: ['graphql'],
    description: `${operation.name} as ${callerName}; ${notes.join('; ')}; ${method.toUpperCase()} ${(body ?? url).slice(0, 300)}`,
  };
}
