/** Figures every benchmark prints: percentiles of latencies and a readable table line. */
export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return 0;
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index] ?? 0;
}

export function summarise(latenciesMs: number[]): { count: number; p50: number; p99: number; max: number } {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? 0,
  };
}

export function printFigures(title: string, figures: Record<string, string | number>): void {
  console.log(`\n${title}`);
  for (const [k, v] of Object.entries(figures)) {
    console.log(`  ${k.padEnd(28)} ${typeof v === 'number' ? (Number.isInteger(v) ? v : v.toFixed(2)) : v}`);
  }
}
