import { type GraphQLSchema, Lexer, Source, TokenKind } from 'graphql';
import { GRAPHQL_LIMITS } from '../../../schema/limits.ts';
import type { Random } from './random.ts';
import { type JsonSchema, type SampleContext, sample } from './values.ts';

/**
 * The GraphQL schema read structurally (under the test runner the schema and this module can hold
 * two copies of `graphql`, so no instanceof): its root fields as operations of the walk, each
 * with a well-formed document whose arguments name the fixture's things.
 */
type SchemaType = {
  name?: string;
  ofType?: SchemaType;
  getFields?(): Record<string, SchemaField>;
  getValues?(): Array<{ name: string }>;
  toString(): string;
};
type SchemaArgument = { name: string; type: SchemaType; defaultValue?: unknown };
type SchemaField = { name: string; type: SchemaType; args: SchemaArgument[] };

const kindOf = (type: SchemaType) => Object.prototype.toString.call(type).slice('[object '.length, -1);
const namedTypeOf = (type: SchemaType): SchemaType => (type.ofType ? namedTypeOf(type.ofType) : type);
const isLeaf = (type: SchemaType) => ['GraphQLScalarType', 'GraphQLEnumType'].includes(kindOf(namedTypeOf(type)));
const fieldsOf = (type: SchemaType) => Object.values(type.getFields?.() ?? {});
const isRequired = (argument: SchemaArgument) => kindOf(argument.type) === 'GraphQLNonNull' && argument.defaultValue === undefined;
/** The rule of schema/limits.ts: a list (or connection) field may not be selected inside itself. */
const isListField = (type: SchemaType) => String(type).replace(/!$/, '').startsWith('[') || namedTypeOf(type).name!.endsWith('Connection');

export const tokensOf = (text: string) => {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
};

/** Documents stay this far under the token limit, so that a hostile variant can still add to them. */
const TOKEN_BUDGET = GRAPHQL_LIMITS.tokens - 150;

/** The REST name of the thing an argument (or input field) names, where the GraphQL name differs. */
const ALIASES: Record<string, string> = {
  code: 'projectId',
  projectCode: 'projectId',
  targetUlid: 'caseUlid',
  sourceUlid: 'caseUlid',
  parentUlid: 'suiteUlid',
  milestoneId: 'milestoneUlid',
  environmentId: 'environmentUlid',
  assigneeUlid: 'userUlid',
  authorUlid: 'userUlid',
  ownerUlid: 'userUlid',
  defaultAssigneeUlid: 'userUlid',
  defaultAssigneeUserId: 'userUlid',
  memberUlid: 'userUlid',
  memberUserUlid: 'userUlid',
  configurationGroupUlid: 'groupUlid',
};

/** What a `ulid` argument names, by the entity its field is about (`suite`, `deleteSuite`, `runCase`); the longest name wins. */
const ENTITIES: Record<string, string> = {
  Suite: 'suiteUlid',
  TestCase: 'caseUlid',
  Run: 'runUlid',
  RunCase: 'runCaseUlid',
  Plan: 'planUlid',
  Milestone: 'milestoneUlid',
  Environment: 'environmentUlid',
  ConfigurationGroup: 'groupUlid',
  Configuration: 'configurationUlid',
  CustomField: 'fieldUlid',
  Defect: 'defectUlid',
  UserGroup: 'userGroupUlid',
  Webhook: 'webhookUlid',
  Invitation: 'invitationUlid',
  ShareLink: 'shareLinkUlid',
};

/** Arguments that name a thing: a root field taking one the walk has no value for fails loudly. */
const NAMES_A_THING = /(Ulids?|Code|Id|Key|Token)$|^(ulid|code|token)$/;

function entityOf(fieldName: string): string | undefined {
  const capitalized = (name: string) => name.replace(/^./, (first) => first.toUpperCase());
  const subjects = [capitalized(fieldName), capitalized(fieldName.replace(/^[a-z]+(?=[A-Z])/, ''))];
  const entity = Object.keys(ENTITIES)
    .filter((name) => subjects.some((subject) => subject.startsWith(name)))
    .sort((a, b) => b.length - a.length)[0];
  return entity && ENTITIES[entity];
}

export type GraphQLVariable = { name: string; type: string };

export type GraphQLOperation = {
  /** `Query.project`: the unit of the walk's coverage. */
  name: string;
  kind: 'query' | 'mutation' | 'subscription';
  field: string;
  /** The named type the root field answers. */
  returnType: string;
  /** The variables' definitions, the root field with its arguments (`project(code: $v0)`), and the operation's whole selection. */
  variables: GraphQLVariable[];
  head: string;
  selection: string;
  /** Values for the variables: required ones always, optional ones half the time. */
  sampleVariables(random: Random): Record<string, unknown>;
  /** Output field coordinates (`Project.runs`) the document selects. */
  coordinates: string[];
  /** A document that completes the coverage of a type: sent once, well-formed. */
  coverageOnly: boolean;
};

/** The text of an operation's document, with other variables or selection than its own when a hostile request says so. */
export const documentText = (operation: Pick<GraphQLOperation, 'kind' | 'variables' | 'selection'>, fragments = '') =>
  `${operation.kind} Walk${operation.variables.length > 0 ? `(${operation.variables.map((variable) => `$${variable.name}: ${variable.type}`).join(', ')})` : ''} { ${operation.selection} }${fragments}`;

/**
 * Builds the walk's GraphQL operations: one per root field, whose document selects every field
 * of what it answers (two levels deep, as far as the token budget allows), then one per object
 * type that no root field's document covered whole, reached from a query by its shortest path.
 */
export function graphqlOperations(
  schema: GraphQLSchema,
  values: Record<string, string[]>,
  random: Random,
): { operations: GraphQLOperation[]; allCoordinates: string[] } {
  const definitions: Record<string, JsonSchema> = {};
  // Strings that name things are the fixture's (an enum of them), so no ULID is drawn at random.
  const sampling: SampleContext = { random, ulids: [], resolve: (ref) => definitions[ref]! };
  /** The fixture's values for an argument or input field, by its name or its singular (`caseUlids`). */
  const valuesOf = (name: string) => [name, name.replace(/s$/, '')].map((each) => values[ALIASES[each] ?? each]).find(Boolean);

  /** JSON Schema of an input type, an input object once under its name: `sample` and the attacks read it. */
  const inputSchema = (type: SchemaType, name: string): JsonSchema => {
    const kind = kindOf(type);
    if (kind === 'GraphQLNonNull') return inputSchema(type.ofType!, name);
    if (kind === 'GraphQLList') return { type: 'array', items: inputSchema(type.ofType!, name.replace(/s$/, '')) };
    if (kind === 'GraphQLEnumType') return { enum: type.getValues!().map((value) => value.name) };
    if (kind === 'GraphQLInputObjectType') {
      if (!definitions[type.name!]) {
        definitions[type.name!] = { type: 'object' };
        const fields = fieldsOf(type) as unknown as SchemaArgument[];
        Object.assign(definitions[type.name!]!, {
          properties: Object.fromEntries(fields.map((field) => [field.name, inputSchema(field.type, field.name)])),
          required: fields.filter(isRequired).map((field) => field.name),
        });
      }
      return { $ref: type.name! };
    }
    switch (type.name) {
      case 'Int':
        return { type: 'integer', minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };
      case 'Float':
        return { type: 'number' };
      case 'Boolean':
        return { type: 'boolean' };
      case 'Timestamp':
        return { type: 'integer', minimum: 0, maximum: 8.64e15 };
      case 'JSON':
        return {};
    }
    const named = valuesOf(name);
    if (named) return { enum: named };
    if (name === 'email' || name === 'emails') return { type: 'string', format: 'email' };
    if (name === 'url') return { type: 'string', format: 'uri' };
    return { type: 'string', maxLength: 40 };
  };

  /** The variables a field's arguments take: required ones always, optional ones that name a thing half the time. */
  const argumentsOf = (parent: string, field: SchemaField, root: boolean) => {
    const taken = field.args.filter((argument) => isRequired(argument) || (root && valuesOf(argument.name) !== undefined));
    return taken.map((argument) => {
      const entity = argument.name === 'ulid' ? entityOf(field.name) : undefined;
      const schema = entity ? { enum: values[entity]! } : inputSchema(argument.type, argument.name);
      if (root && isRequired(argument) && NAMES_A_THING.test(argument.name) && !('enum' in (schema.items ?? schema))) {
        throw new Error(`The walk has no value for ${parent}.${field.name}(${argument.name}): name the fixture's in ALIASES or ENTITIES`);
      }
      return { argument, schema, optional: !isRequired(argument) };
    });
  };

  const allCoordinates = new Set<string>();
  const covered = new Set<string>();
  const collect = (type: SchemaType) => {
    for (const field of fieldsOf(type)) {
      const coordinate = `${type.name}.${field.name}`;
      if (allCoordinates.has(coordinate)) continue;
      allCoordinates.add(coordinate);
      if (!isLeaf(field.type)) collect(namedTypeOf(field.type));
    }
  };

  type Document = Pick<GraphQLOperation, 'variables' | 'head' | 'selection' | 'sampleVariables' | 'coordinates'>;

  /** One document: the root field (reached through `path`, fields of queries), the selection at its end. */
  const documentOf = (rootType: SchemaType, path: SchemaField[], levels: number): Document => {
    const variables: Array<GraphQLVariable & { schema: JsonSchema; optional: boolean }> = [];
    const coordinates: string[] = [];
    const argumentText = (parent: string, field: SchemaField, root: boolean) => {
      const text = argumentsOf(parent, field, root).map(({ argument, schema, optional }) => {
        const name = `v${variables.length}`;
        variables.push({ name, type: String(argument.type), schema, optional });
        return `${argument.name}: $${name}`;
      });
      return text.length > 0 ? `(${text.join(', ')})` : '';
    };
    // A list already selected above is left out: limits.ts refuses it inside itself.
    const select = (type: SchemaType, depth: number, listsAbove: string[]): string =>
      fieldsOf(type)
        .filter((field) => !listsAbove.includes(`${type.name}.${field.name}`))
        .map((field) => {
          const coordinate = `${type.name}.${field.name}`;
          coordinates.push(coordinate);
          const head = `${field.name}${argumentText(type.name!, field, false)}`;
          if (isLeaf(field.type)) return head;
          const lists = isListField(field.type) ? [...listsAbove, coordinate] : listsAbove;
          return `${head} { ${depth < levels ? select(namedTypeOf(field.type), depth + 1, lists) : '__typename'} }`;
        })
        .join(' ');
    let parent = rootType;
    let lists: string[] = [];
    const heads = path.map((field, index) => {
      const coordinate = `${parent.name}.${field.name}`;
      coordinates.push(coordinate);
      const head = `${field.name}${argumentText(parent.name!, field, index === 0)}`;
      if (isListField(field.type)) lists = [...lists, coordinate];
      parent = namedTypeOf(field.type);
      return head;
    });
    const leaf = isLeaf(path.at(-1)!.type);
    const selection = `${heads.join(' { ')}${leaf ? '' : ` { ${select(parent, 0, lists)}`}${' }'.repeat(leaf ? path.length - 1 : path.length)}`;
    return {
      variables: variables.map(({ name, type }) => ({ name, type })),
      head: heads[0]!,
      selection,
      sampleVariables: (random) =>
        Object.fromEntries(
          variables
            .filter((variable) => !variable.optional || random.chance(0.5))
            .map((variable) => [variable.name, sample(variable.schema, { ...sampling, random })]),
        ),
      coordinates,
    };
  };

  /** The deepest document of two levels at most that fits the token budget. */
  const fitting = (kind: GraphQLOperation['kind'], rootType: SchemaType, path: SchemaField[]) => {
    for (let levels = 2; ; levels--) {
      const built = documentOf(rootType, path, levels);
      if (levels === 0 || tokensOf(documentText({ kind, ...built })) <= TOKEN_BUDGET) return built;
    }
  };

  const operations: GraphQLOperation[] = [];
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as Array<[GraphQLOperation['kind'], SchemaType | null | undefined]>;
  for (const [kind, rootType] of roots) {
    if (!rootType) continue;
    collect(rootType);
    for (const field of fieldsOf(rootType)) {
      const built = fitting(kind, rootType, [field]);
      for (const coordinate of built.coordinates) covered.add(coordinate);
      operations.push({
        name: `${rootType.name}.${field.name}`,
        kind,
        field: field.name,
        returnType: namedTypeOf(field.type).name!,
        coverageOnly: false,
        ...built,
      });
    }
  }

  // Types whose fields the root documents left out, each reached from a query by its shortest path.
  const queryType = schema.getQueryType() as unknown as SchemaType;
  for (const [typeName, path] of shortestPaths(queryType)) {
    const type = namedTypeOf(path.at(-1)!.type);
    if (fieldsOf(type).every((field) => covered.has(`${typeName}.${field.name}`))) continue;
    const built = documentOf(queryType, path, 0);
    for (const coordinate of built.coordinates) covered.add(coordinate);
    operations.push({
      name: `Query.${path[0]!.name} → ${typeName}`,
      kind: 'query',
      field: path[0]!.name,
      returnType: namedTypeOf(path[0]!.type).name!,
      coverageOnly: true,
      ...built,
    });
  }
  return { operations, allCoordinates: [...allCoordinates] };
}

/** For each object type reachable from the query type, the shortest chain of fields to it (breadth first). */
function shortestPaths(queryType: SchemaType): Map<string, SchemaField[]> {
  const paths = new Map<string, SchemaField[]>();
  let frontier: Array<{ type: SchemaType; path: SchemaField[] }> = [{ type: queryType, path: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { type, path } of frontier) {
      for (const field of fieldsOf(type)) {
        const target = namedTypeOf(field.type);
        if (isLeaf(target) || paths.has(target.name!) || target === queryType) continue;
        paths.set(target.name!, [...path, field]);
        next.push({ type: target, path: [...path, field] });
      }
    }
    frontier = next;
  }
  return paths;
}
