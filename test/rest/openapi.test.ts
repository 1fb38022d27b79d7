import { describe, expect, it } from 'vitest';
import { v1Routes } from '../../rest/v1/index.ts';
import { useTestApp } from '../support/app.ts';

const t = useTestApp();

describe('GET /openapi/v1.json', () => {
  it('is an OpenAPI 3.1 document, version 1.0.0, listing every /api/v1 route', async () => {
    const response = await t.http.get('/openapi/v1.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.info.version).toBe('1.0.0');
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(v1Routes.map((route) => `${route.method} /api/v1${route.path}`).sort());
  });

  it('documents the request schemas that validate requests, unknown keys included', async () => {
    const { body } = await t.http.get('/openapi/v1.json');
    const create = body.components.schemas.CreateProjectRequest;
    expect(create.required).toEqual(expect.arrayContaining(['name', 'id']));
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.name.maxLength).toBe(200);
    expect(create.properties.id.pattern).toBe('^[A-Z][A-Z0-9]*$');
    expect(body.paths['/api/v1/projects'].post.responses['409'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Error',
    );
  });

  it('every documented operation is routed (none falls through to the 404 catch-all)', async () => {
    for (const route of v1Routes) {
      const path = `/api/v1${route.path}`.replace(/\{\w+\}/g, '01JD3Z8Q4V5W6X7Y8Z9A0B1C2D');
      const response = await t.http[route.method](path);
      expect(response.body?.error?.message ?? '', `${route.method} ${path}`).not.toMatch(/^No route/);
    }
  });
});

describe('GET /docs', () => {
  it('renders the reference for people from /openapi/v1.json', async () => {
    const page = await t.http.get('/docs/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const init = await t.http.get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('/openapi/v1.json');
  });
});
