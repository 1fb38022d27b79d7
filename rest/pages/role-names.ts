import type { Role } from '../../src/foundation/context.ts';
import type { Texts } from './texts.ts';

/** The roles of contract §1 as people read them. */
export const ROLE_NAMES = {
  en: { owner: 'owner', admin: 'admin', member: 'member', viewer: 'viewer' },
  es: { owner: 'propietario', admin: 'administrador', member: 'miembro', viewer: 'lector' },
} satisfies Texts<Role>;
