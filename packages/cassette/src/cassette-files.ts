/**
 * How a cassette provider reads and writes its file. The default uses
 * `node:fs`, loaded when a cassette with a `file` is first made, so the
 * package's entry imports no Node module; pass your own for other runtimes
 * or to stand in for a disk in tests.
 */
export interface CassetteFiles {
  /** The file's text, or undefined when there is no such file. */
  read(path: string): Promise<string | undefined>;
  /** Replaces the file's text whole (never a half-written file), creating its folder. */
  write(path: string, text: string): Promise<void>;
}

/** The default `CassetteFiles` and the path of a `file` option, from `node:fs` (loaded on first use). */
export async function nodeFiles(): Promise<{ files: CassetteFiles; pathOf(file: string | URL): string }> {
  const module = await import('./node-cassette-files.js');
  return { files: module.nodeCassetteFiles, pathOf: module.pathOf };
}
