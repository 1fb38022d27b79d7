import type { OrganizationLimits } from '../kernel/billing-tiers.ts';
import type { Db } from '../kernel/database/client.ts';
import type { Locale } from '../kernel/i18n.ts';

export const ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export type UserSnapshot = {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  avatarKey: string | null;
  /** The address is proven (contract §18). */
  emailVerified: boolean;
};

/** Who is calling, before an organization is chosen. */
export type Identity =
  | { kind: 'session'; user: UserSnapshot; sessionId: string }
  | {
      kind: 'api_token';
      user: UserSnapshot;
      token: { id: string; name: string; orgId: string; role: Role };
      /** The token's organization, read with the token (a token acts in no other). */
      org: OrganizationSnapshot;
    }
  | {
      /** An OAuth access token (contract §16): the consenting user, acting through an application. */
      kind: 'oauth';
      user: UserSnapshot;
      /** The grant (one client's consent in one organization): `id` keys per-token limits as an API token's does. */
      token: { id: string; name: string; orgId: string; role: Role };
      org: OrganizationSnapshot;
    };

export type OrganizationSnapshot = {
  id: string;
  name: string;
  plan: string;
  limits: OrganizationLimits;
  /** Staff suspended the organization (contract §18): src/foundation/request.ts refuses nearly every request. */
  suspended: boolean;
};

/**
 * Everything a service needs about one request in one organization. `db` is confined to that
 * organization (database/tenant.ts); services never reach another tenant's rows through it.
 */
export type RequestContext = {
  identity: Identity;
  org: OrganizationSnapshot;
  role: Role;
  /** Machine-authenticated callers count against the per-minute and monthly ceilings. */
  metered: boolean;
  db: Db;
  /**
   * The private projects this caller may not see (src/foundation/auth/project-visibility.ts): `db` leaves them
   * out of every query; raw SQL that reaches project rows leaves them out itself.
   */
  hiddenProjectIds: readonly string[];
  /** From Accept-Language; localized custom-field texts resolve to it. */
  locale: Locale;
};

export const displayName = (user: Pick<UserSnapshot, 'firstName' | 'lastName'>) => `${user.firstName} ${user.lastName}`.trim();
