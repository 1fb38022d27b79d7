/** The webhook dispatchers running in this process (one per open app), woken when deliveries commit. */
const dispatchers = new Set<() => void>();

/** Wakes this process's dispatchers: deliveries were committed and are due now. */
export function wakeWebhookDispatchers(): void {
  for (const wake of dispatchers) wake();
}

/** Registers a dispatcher's wake function; returns the function that unregisters it. */
export function onWebhookDeliveriesQueued(wake: () => void): () => void {
  dispatchers.add(wake);
  return () => {
    dispatchers.delete(wake);
  };
}
