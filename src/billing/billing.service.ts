import type { BillingProviderName } from '../kernel/billing-tiers.ts';
import type { Config } from '../kernel/config.ts';
import type { BillingProvider } from './billing-provider.ts';

/** What a provider answers about an organization's committed seats (the subscription reads it). */
export type { Commitment } from './billing-provider.ts';

import { LocalBillingProvider } from './local-provider.ts';

const PROVIDERS: Record<BillingProviderName, () => BillingProvider> = { local: () => new LocalBillingProvider() };

let provider: BillingProvider = new LocalBillingProvider();

/** Chooses the provider named by TCMS_BILLING_PROVIDER at start-up (loadConfig refuses a name this build does not have). */
export function openBillingProvider(config: Pick<Config, 'billingProvider'>): void {
  provider = PROVIDERS[config.billingProvider]();
}

/** The process's billing provider. */
export const billingProvider = (): BillingProvider => provider;
