/**
 * Adds each of `handlers` (event name to listener) to `target` until `signal` aborts: one
 * AbortController then takes off every listener a hook added, whatever it listened to.
 */
export function listen(
  target: EventTarget,
  handlers: Record<string, EventListener>,
  signal: AbortSignal,
): void {
  for (const [name, handler] of Object.entries(handlers)) target.addEventListener(name, handler, { signal });
}
