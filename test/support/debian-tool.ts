import { execFileSync } from 'node:child_process';

/**
 * Whether a Debian tool a test drives is on this machine. `.ci/run` installs each one, so CI runs
 * every such test; on a machine without it the test skips and says which package brings it,
 * rather than failing with ENOENT.
 */
export function hasDebianTool(command: string, debianPackage: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(`[skipped] these tests need \`${command}\`: apt-get install ${debianPackage} (.ci/run installs it)`);
    return false;
  }
}
