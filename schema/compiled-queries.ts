import { useGraphQlJit } from '@envelop/graphql-jit';
import { type ExecutionArgs, type GraphQLError, getOperationAST } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const isQuery = (args: ExecutionArgs) => getOperationAST(args.document, args.operationName)?.operation === 'query';

/**
 * A result without data is a request error (variables that do not coerce): 400, as the reference
 * executor marks it, which graphql-jit does not.
 */
const asRequestError = (error: GraphQLError) =>
  createGraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, http: { status: 400 } } });

/**
 * The errors of variables that do not coerce a request answers at most: the reference executor
 * stops at 50, graphql-jit reports every item of a list (a list of 10,000 objects for strings
 * answered 2 MB).
 */
const MAX_VARIABLE_ERRORS = 50;

const requestErrorsAnswer400: Plugin = {
  onExecute: ({ args }) =>
    isQuery(args)
      ? {
          onExecuteDone: ({ result, setResult }) => {
            if (Array.isArray(result) || Symbol.asyncIterator in result || 'data' in result || !result.errors) return;
            setResult({ ...result, errors: result.errors.slice(0, MAX_VARIABLE_ERRORS).map(asRequestError) });
          },
        }
      : undefined,
};

/**
 * Queries run compiled by graphql-jit (one function per document, cached with Yoga's parsed
 * document): GraphQL's reference executor spends more per field than the services spend per
 * query on wide answers (200 plans' progress is about 5,000 fields). Compiled queries do not stop
 * when the client disconnects; the cost limit (schema/limits.ts) bounds what they do. Mutations
 * and subscriptions keep the reference executor and its cancellation.
 */
export const compiledQueries = () => [useGraphQlJit({}, { enableIf: isQuery }), requestErrorsAnswer400];
