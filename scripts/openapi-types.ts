/**
 * Writes test/support/openapi-v1.d.ts, the openapi-typescript types of /openapi/v1.json
 * (`npm run openapi:types`). A test compares the checked-in file with a fresh generation.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from '../rest/openapi.ts';
import { v1Routes } from '../rest/v1/index.ts';

export const OPENAPI_TYPES_FILE = fileURLToPath(new URL('../test/support/openapi-v1.d.ts', import.meta.url));

/** The TypeScript declarations of an OpenAPI document, as the checked-in file holds them. */
export async function renderOpenApiTypes(document: unknown): Promise<string> {
  const declarations = astToString(await openapiTS(document as OpenAPI3, { silent: true }));
  return `// Generated from /openapi/v1.json by \`npm run openapi:types\`: do not edit.\n${declarations}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_TYPES_FILE, await renderOpenApiTypes(buildOpenApiDocument(v1Routes)));
  console.log(`wrote ${OPENAPI_TYPES_FILE}`);
}
