/** The name of a copy: "Name (copy)", the original shortened so the whole stays within `max` characters. */
export function copyName(name: string, max: number): string {
  const suffix = ' (copy)';
  return `${Array.from(name).slice(0, Math.max(0, max - suffix.length)).join('').trimEnd()}${suffix}`;
}
