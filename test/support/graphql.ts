import type { Response } from 'supertest';
import { expect } from 'vitest';

/** One entry of a GraphQL answer's `errors`, as the app masks it. */
export type GraphQLErrorBody = {
  message: string;
  path?: string[];
  extensions?: { code?: string; graphqlCode?: string; details?: { path?: unknown[]; [key: string]: unknown } };
};

/** The data of a GraphQL answer that must not carry errors. */
export function dataOf(response: Response) {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body)).toBeUndefined();
  return response.body.data;
}

/** The one error of a GraphQL answer; fails unless there is exactly one. */
export function onlyError(response: Response): GraphQLErrorBody {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const errors = response.body.errors as GraphQLErrorBody[] | undefined;
  expect(errors, JSON.stringify(response.body)).toHaveLength(1);
  return errors![0]!;
}

/** The `extensions.code` of the one error of a GraphQL answer. */
export const codeOf = (response: Response) => onlyError(response).extensions?.code;
