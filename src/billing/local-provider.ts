import type { BillingProvider, Commitment } from './billing-provider.ts';

/** One calendar month later (UTC); a day the next month lacks becomes its last (Jan 31 → Feb 28). */
export function oneMonthAfter(date: Date): Date {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return next;
}

/** The built-in provider (contract §2, §9): applies every change at once or at period end, without payment. */
export class LocalBillingProvider implements BillingProvider {
  readonly name = 'local';

  async checkout({ seats, now }: { seats: number; now: Date }): Promise<Commitment> {
    return { seats, currentPeriodStart: now, currentPeriodEnd: oneMonthAfter(now), pendingChange: null };
  }

  async changeSeatsNow({ current, seats }: { current: Commitment; seats: number }): Promise<Commitment> {
    return { ...current, seats, pendingChange: null };
  }

  async scheduleSeatsChange({ current, seats }: { current: Commitment; seats: number }): Promise<Commitment> {
    return { ...current, pendingChange: { seats, effectiveAt: current.currentPeriodEnd } };
  }

  async cancelPendingChange({ current }: { current: Commitment }): Promise<Commitment> {
    return { ...current, pendingChange: null };
  }

  async renew({ current, now }: { current: Commitment; now: Date }): Promise<Commitment> {
    let { seats, currentPeriodStart, currentPeriodEnd, pendingChange } = current;
    while (currentPeriodEnd <= now) {
      currentPeriodStart = currentPeriodEnd;
      currentPeriodEnd = oneMonthAfter(currentPeriodStart);
    }
    if (pendingChange && pendingChange.effectiveAt <= now) {
      seats = pendingChange.seats;
      pendingChange = null;
    }
    return { seats, currentPeriodStart, currentPeriodEnd, pendingChange };
  }
}
