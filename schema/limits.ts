import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import {
  type ASTNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type SelectionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * The limits a public GraphQL API needs, checked before anything executes (so a refusal costs
 * microseconds and no SQL). Every refusal is a GraphQL validation error, which
 * `contractCodesForRequestErrors` (schema/errors.ts) answers as `validation_failed`.
 */
export const GRAPHQL_LIMITS = {
  /**
   * Tokens of one document: bounds the parser's work, and how deeply a document can nest before
   * graphql-js parses it recursively (the largest query of the tests has under 100).
   */
  tokens: 1_000,
  /** Nesting of selections; three Relay connections (edges/node) and their leaves fit. */
  depth: 12,
  /** Aliases in one operation: a thousand aliases of one field is a thousand executions. */
  aliases: 30,
  directives: 20,
  /**
   * graphql-armor's cost: objects 2, scalars 1, each level weighing 1.5 times its parent, and a
   * connection's `first`/`last` multiplying its selection. A dashboard reading 200 plans with
   * their progress and runs costs about 90,000; a page of 200 rows each with a page of 200 costs
   * millions.
   */
  cost: 200_000,
} as const;

// The rules below read types structurally, without graphql's instanceof checks: under the test
// runner the schema and this module can hold two copies of `graphql` (see schema/errors.ts).
const namedTypeOf = (type: GraphQLOutputType): GraphQLNamedType => ('ofType' in type ? namedTypeOf(type.ofType) : type);
const isListField = (type: GraphQLOutputType): boolean =>
  String(type).replace(/!$/, '').startsWith('[') || namedTypeOf(type).name.endsWith('Connection');
const fieldsOf = (type: GraphQLNamedType | null | undefined): Record<string, GraphQLField<unknown, unknown>> =>
  type && 'getFields' in type && typeof type.getFields === 'function'
    ? (type.getFields() as Record<string, GraphQLField<unknown, unknown>>)
    : {};

/** Selections the walk below visits at most (fragments expand where they are spread). */
const MAX_VISITED_SELECTIONS = 10_000;

/** A selection still to visit, with what encloses it: the lists above it and the fragments it was spread through. */
type PendingSelection = {
  selection: SelectionNode;
  parentType: GraphQLNamedType | undefined | null;
  listsAbove: readonly string[];
  fragmentsAbove: readonly string[];
};

/**
 * A list (or connection) field may not be selected again below itself. Back-references make
 * cycles (`suite { cases { suite { cases … } } }`) whose result grows as a power of the data
 * size however shallow the query; no legitimate read needs to re-enter the list it is in.
 * Fragments count where they are spread, so a cycle cannot hide in one.
 *
 * The walk keeps its own stack: it runs before graphql-js's NoFragmentCyclesRule has refused a
 * fragment spread inside itself, and however long a chain of fragments, it cannot overflow the
 * call stack. A fragment already spread above is not entered again; that rule reports it.
 */
const noNestedRepeatOfAList: ValidationRule = (context: ValidationContext) => ({
  OperationDefinition(operation) {
    const schema = context.getSchema();
    const pending: PendingSelection[] = [];
    const enter = (selectionSet: SelectionSetNode, enclosing: Omit<PendingSelection, 'selection'>) => {
      // Reversed onto the stack, so that selections are visited in document order.
      for (let index = selectionSet.selections.length - 1; index >= 0; index--)
        pending.push({ selection: selectionSet.selections[index]!, ...enclosing });
    };
    const refuse = (message: string, node: ASTNode) => context.reportError(new GraphQLError(message, { nodes: [node] }));
    enter(operation.selectionSet, { parentType: schema.getRootType(operation.operation), listsAbove: [], fragmentsAbove: [] });
    let visited = 0;
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { selection, parentType, listsAbove, fragmentsAbove } = next;
      if (++visited > MAX_VISITED_SELECTIONS) return refuse('The query selects too many fields', selection);
      if (selection.kind === Kind.FIELD) {
        const field = fieldsOf(parentType)[selection.name.value];
        if (!field || !selection.selectionSet) continue;
        const coordinate = isListField(field.type) ? `${parentType!.name}.${field.name}` : null;
        if (coordinate && listsAbove.includes(coordinate)) {
          return refuse(`${coordinate} may not be selected inside itself: query it at one level and follow references by ULID`, selection);
        }
        enter(selection.selectionSet, {
          parentType: namedTypeOf(field.type),
          listsAbove: coordinate ? [...listsAbove, coordinate] : listsAbove,
          fragmentsAbove,
        });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        enter(selection.selectionSet, { parentType: type, listsAbove, fragmentsAbove });
      } else {
        const name = selection.name.value;
        const fragment = context.getFragment(name);
        if (!fragment || fragmentsAbove.includes(name)) continue;
        enter(fragment.selectionSet, {
          parentType: schema.getType(fragment.typeCondition.name.value),
          listsAbove,
          fragmentsAbove: [...fragmentsAbove, name],
        });
      }
    }
  },
});

/**
 * graphql-armor's refusals are reported like graphql-js's own validation errors rather than
 * thrown out of the validation: they answer the same status (400 to a client accepting
 * `application/graphql-response+json`), beside the document's other errors.
 */
const reportedAsValidationErrors = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

/** A plugin adding validation rules to every operation. */
const validationRules = (rules: ValidationRule[]): Plugin => ({
  onValidate({ addValidationRule }) {
    for (const rule of rules) addValidationRule(rule);
  },
});

/**
 * The GraphQL limits as Yoga plugins. In production, introspection (`__schema`, `__type`; not
 * `__typename`) is refused by graphql-js's own rule and "did you mean"
 * suggestions are masked: the schema is not a map handed to anonymous callers.
 */
export function graphqlLimits(options: { production: boolean }): Plugin[] {
  return [
    maxTokensPlugin({ n: GRAPHQL_LIMITS.tokens }),
    maxDepthPlugin({ n: GRAPHQL_LIMITS.depth, ignoreIntrospection: true, flattenFragments: true, ...reportedAsValidationErrors }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.aliases, ...reportedAsValidationErrors }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.directives, ...reportedAsValidationErrors }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.cost, ignoreIntrospection: true, flattenFragments: true, ...reportedAsValidationErrors }),
    validationRules([noNestedRepeatOfAList, ...(options.production ? [NoSchemaIntrospectionCustomRule] : [])]),
    ...(options.production ? [blockFieldSuggestionsPlugin()] : []),
  ] as Plugin[];
}
