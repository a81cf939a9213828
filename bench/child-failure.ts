/** A bench child process's end on an error it cannot go on from: its stack on stderr, exit code 1 (the suite sees the child die). */
export function exitWithError(error: unknown): never {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}
