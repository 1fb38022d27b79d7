/**
 * Prints the GraphQL schema, sorted, to schema/schema.graphql (`npm run schema:print`).
 * `--stdout` prints it instead of writing the file (the schema-printed test compares the two).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../schema/index.ts';

const target = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes('--stdout')) {
  process.stdout.write(printed);
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
