/** The delay before the retry that follows failed attempt `attempt`: base · growth^(attempt−1), ±20% jitter. */
export const backoffDelayMs = (baseMs: number, growth: number, attempt: number, random = Math.random()) =>
  Math.round(baseMs * growth ** (attempt - 1) * (0.8 + 0.4 * random));
