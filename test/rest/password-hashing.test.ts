import { expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { signUp, useTestApp } from '../support/app.ts';

/**
 * Passwords are stored as argon2id hashes at OWASP's minimum cost, 19 MiB and 2 passes, unless
 * the operator sets another (the other tests run at the cheapest, through vitest.config.ts). A hash
 * carries its parameters, so a password hashed at one cost still signs in at another.
 */
const t = useTestApp({ TCMS_PASSWORD_MEMORY_KIB: undefined, TCMS_PASSWORD_PASSES: undefined });

it("hashes a new password with argon2id at production's cost, and signs it in", async () => {
  const user = await signUp(t.http, { password: 'a long passphrase' });
  const { passwordHash } = await prisma().user.findUniqueOrThrow({ where: { id: user.userId } });
  expect(passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const login = await t.http.post('/api/v1/auth/login').send({ email: user.email, password: 'a long passphrase' });
  expect(login.status).toBe(200);
});
