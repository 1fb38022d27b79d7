/**
 * The service's budgets count in fixed windows aligned to the epoch (the sign-in throttle's 15
 * minutes, the rate limiter's minutes and hours). A test that spends a budget and expects its
 * refusal must not straddle two windows: this waits, when the current window of `windowMs` has
 * less than `neededMs` left, until the next one begins. Mostly it returns at once.
 */
export async function windowWithRoom(windowMs: number, neededMs: number): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

export const HOUR_MS = 3_600_000;
