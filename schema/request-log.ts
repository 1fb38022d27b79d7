import type { Plugin } from 'graphql-yoga';

type ServerContext = { res: { locals: Record<string, unknown> } };

/**
 * Notes on the request's log line (rest/request-log.ts reads `res.locals`) how many errors the
 * GraphQL answer carried; its organization is noted when the context is made.
 */
export const graphqlOutcomeLog: Plugin<Record<string, never>, ServerContext> = {
  onResultProcess({ result, serverContext }) {
    if (!Array.isArray(result) && Symbol.asyncIterator in result) return;
    const results = Array.isArray(result) ? result : [result];
    const errors = results.reduce((count, each) => count + (each.errors?.length ?? 0), 0);
    serverContext.res.locals.graphql = { errors };
  },
};
