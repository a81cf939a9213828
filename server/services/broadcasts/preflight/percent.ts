/**
 * A share as people read it (`0.299 %`, `25 %`): rounded down to thousandths of a percent, so a
 * rate just under a threshold never shows as the threshold itself.
 */
export function percent(part: number, whole: number): string {
  const thousandths = whole === 0 ? 0 : Math.floor((part * 100_000) / whole);
  return `${(thousandths / 1000).toFixed(3).replace(/\.?0+$/, '')} %`;
}
