/** Everything the CLI touches of the outside world; tests pass in-memory versions. */
export interface Io {
  readonly stdout: { write(s: string): unknown; isTTY?: boolean };
  readonly stderr: { write(s: string): unknown; isTTY?: boolean };
  readStdin(): Promise<string>;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the rule pages shipped with the tool may be (docs/rules/ of the package, or beside the executable); first found wins. */
  readonly docsDirs?: readonly string[];
  /** The bin's build of crdx and the user's cache directory (where --crd verdicts are kept: verdict-cache.ts). */
  readonly cache?: CacheLocation;
}

export interface CacheLocation {
  /** The bundle's id (its first line): what is kept is valid for this build only. */
  readonly id: string;
  dir(): string;
}
