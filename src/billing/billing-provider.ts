/** A seat change that takes effect later (at the end of the current period). */
export type PendingSeatChange = { seats: number; effectiveAt: Date };

/** What an organization has committed to with its billing provider. */
export type Commitment = {
  seats: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  pendingChange: PendingSeatChange | null;
};

/**
 * What a billing provider does for the subscription endpoints (contract §9). Each operation
 * answers the commitment as the provider now holds it; the service stores it and derives the
 * seat limit from it. A provider that takes payment (Stripe, say) would charge or prorate here and
 * may refuse with 503 billing_provider_unavailable; the built-in `local` one takes none.
 */
export interface BillingProvider {
  readonly name: string;
  /** Starts a monthly period at `now` committing `seats`. */
  checkout(request: { orgId: string; seats: number; now: Date }): Promise<Commitment>;
  /** Commits `seats` from now on; a scheduled change is dropped. */
  changeSeatsNow(request: { orgId: string; current: Commitment; seats: number; now: Date }): Promise<Commitment>;
  /** Schedules `seats` for the end of the current period, replacing any scheduled change. */
  scheduleSeatsChange(request: { orgId: string; current: Commitment; seats: number }): Promise<Commitment>;
  /** Drops the scheduled change and keeps the current commitment. */
  cancelPendingChange(request: { orgId: string; current: Commitment }): Promise<Commitment>;
  /**
   * Brings the commitment up to `now`: a scheduled change whose time has come takes effect, and a
   * period that has ended is followed by the next one (as many as have passed).
   */
  renew(request: { orgId: string; current: Commitment; now: Date }): Promise<Commitment>;
}
