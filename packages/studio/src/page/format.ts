/** A byte count as people read it: 512 B, 3.4 kB, 20.0 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A duration: 830 ms, 4.2 s, 3 min 5 s. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  const minutes = Math.floor(milliseconds / 60_000);
  return `${minutes} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}

/** US dollars with enough digits for small costs; '—' when unknown. */
export function formatCost(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return '—';
  if (cost === 0) return '$0';
  return cost < 0.01 ? `$${cost.toFixed(4)}` : `$${cost.toFixed(2)}`;
}

/** How long ago an ISO time was: 12 s ago, 5 min ago, 3 h ago, or the date. */
export function formatAge(iso: string, now = Date.now()): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso || '—';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** Token counts: 1,234 in, 56 out. */
export function formatTokens(usage: { input: number; output: number } | undefined): string {
  if (usage === undefined) return '';
  return `${usage.input.toLocaleString('en')} in, ${usage.output.toLocaleString('en')} out`;
}

/** A status as a person reads it. */
export function statusLabel(status: string): string {
  return status === 'await_user' ? 'waiting for approval' : status;
}
