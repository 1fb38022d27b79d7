import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../rest/openapi.ts';
import { v1Routes } from '../../rest/v1/index.ts';

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  maxItems?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
};
type Operation = {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};

const document = buildOpenApiDocument(v1Routes) as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

const isType = (schema: JsonSchema, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/**
 * Where a string, an array or a number that the API takes has no bound: maxLength (or an enum or
 * a pattern), maxItems, minimum and maximum.
 */
function unbounded(schema: JsonSchema, where: string, seen = new Set<string>()): string[] {
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    const name = schema.$ref.replace('#/components/schemas/', '');
    return unbounded(document.components.schemas[name]!, `${where} (${name})`, new Set([...seen, schema.$ref]));
  }
  const found: string[] = [];
  if (isType(schema, 'array') && schema.maxItems === undefined) found.push(`${where}: array without maxItems`);
  const boundedString =
    schema.maxLength !== undefined || schema.enum !== undefined || schema.const !== undefined || schema.pattern !== undefined;
  if (isType(schema, 'string') && !boundedString) found.push(`${where}: string without maxLength`);
  if (isType(schema, 'integer') || isType(schema, 'number')) {
    if (schema.maximum === undefined) found.push(`${where}: number without maximum`);
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) found.push(`${where}: number without minimum`);
  }
  for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...unbounded(option, where, seen));
  if (schema.items) found.push(...unbounded(schema.items, `${where}[]`, seen));
  for (const [key, property] of Object.entries(schema.properties ?? {})) found.push(...unbounded(property, `${where}.${key}`, seen));
  if (typeof schema.additionalProperties === 'object') found.push(...unbounded(schema.additionalProperties, `${where}.*`, seen));
  return found;
}

describe('request bounds', () => {
  it("bounds every string, array and number of every JSON body and query parameter (zod checks an array's max before its items)", () => {
    const found: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`;
        // Path parameters are looked up as they are; the 16 KiB header limit of Node bounds them.
        for (const parameter of operation.parameters ?? []) {
          if (parameter.in === 'query') found.push(...unbounded(parameter.schema, `${name} ?${parameter.name}`));
        }
        const json = operation.requestBody?.content['application/json'];
        if (json) found.push(...unbounded(json.schema, `${name} body`));
      }
    }
    expect(found).toEqual([]);
  });
});
