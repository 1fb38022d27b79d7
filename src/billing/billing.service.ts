import { type Config, ConfigurationError } from '../kernel/config.ts';
import type { BillingProvider } from './billing-provider.ts';

/** What a provider answers about an organization's committed seats (the subscription reads it). */
export type { Commitment } from './billing-provider.ts';

import { LocalBillingProvider } from './local-provider.ts';

const PROVIDERS = new Map<string, () => BillingProvider>([['local', () => new LocalBillingProvider()]]);

let provider: BillingProvider = new LocalBillingProvider();

/** Chooses the provider named by TCMS_BILLING_PROVIDER at start-up; an unknown name stops the start. */
export function openBillingProvider(config: Pick<Config, 'billingProvider'>): void {
  const create = PROVIDERS.get(config.billingProvider);
  if (!create) {
    throw new ConfigurationError(
      `TCMS_BILLING_PROVIDER "${config.billingProvider}" is not a billing provider of this build (known: ${[...PROVIDERS.keys()].join(', ')})`,
    );
  }
  provider = create();
}

/** The process's billing provider. */
export const billingProvider = (): BillingProvider => provider;
