import { searchQuerySchema, validate } from '../src/kernel/validation.ts';

/** GraphQL's null for "absent" where the REST body has no null (zod then reports what is missing). */
export const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** The `q` argument of a connection, validated like the REST query. */
export const searchOf = (args: { q?: string | null }) => validate(searchQuerySchema, { q: orUndefined(args.q) }).q;
