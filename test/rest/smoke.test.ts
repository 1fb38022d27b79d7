import { describe, expect, it } from 'vitest';
import { createProject, signUp, tokenFor, useTestApp } from '../support/app.ts';

const t = useTestApp();

describe('smoke', () => {
  it('signs up, creates a token and a project', async () => {
    const owner = await signUp(t.http);
    const token = await tokenFor(t.http, owner);
    const project = await createProject(t.http, token, { name: 'Web' });
    const response = await t.http.get(`/api/v1/projects/${project.id}`).set(token.headers);
    expect(response.status).toBe(200);
    expect(response.body.name).toBe('Web');
  });
});
