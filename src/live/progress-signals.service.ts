/** A committed change to a run's progress (an audit event carrying the run), as every process hears of it. */
export type RunChange = { orgId: string; runId: string; planId: string | null };

type Listener = (change: RunChange) => void;

const listeners = new Set<Listener>();

/** How a change leaves this process: delivered here only, unless a fan-out (LISTEN/NOTIFY) took over. */
let send: (change: RunChange) => void = hearRunChange;

/** Tells every process's live streams that a run changed; called once the change has committed. */
export function publishRunChange(change: RunChange): void {
  send(change);
}

/** Hands a change to this process's listeners (its streams): what a fan-out calls for each change it receives. */
export function hearRunChange(change: RunChange): void {
  for (const listener of listeners) listener(change);
}

/** Routes published changes through `fanOut` (every process hears them back), or back to this process alone. */
export function sendRunChangesThrough(fanOut: ((change: RunChange) => void) | undefined): void {
  send = fanOut ?? hearRunChange;
}

/** Listens to the changes this process hears; returns the function that stops listening. */
export function onRunChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
