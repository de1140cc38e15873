/**
 * Build-time variables as dockerd's classic builder keeps them (builder/dockerfile/buildargs.go): the
 * values the request gives (`buildargs`) apply only to variables an ARG declares, or to the proxy
 * variables that need no ARG; an ARG's own default applies otherwise; ARGs before the first FROM are
 * meta args, which FROM lines may use and a stage's ARG without a default takes the value of. The
 * request's variables that nothing declared are reported once the build is done.
 */

/** What dockerd lets through without an ARG, and leaves out of an image's history unless declared. */
const BUILTIN_ARGS = new Set(['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'FTP_PROXY', 'ftp_proxy', 'NO_PROXY', 'no_proxy', 'ALL_PROXY', 'all_proxy']);

export class BuildArgs {
  /** declared in the current stage: name to default */
  private allowed = new Map<string, string | undefined>();
  private readonly meta = new Map<string, string | undefined>();
  private readonly referenced = new Set<string>();

  /** @param fromRequest the request's `buildargs` (a null value means "take the environment's": there is none here) */
  constructor(private readonly fromRequest: ReadonlyMap<string, string | null>) {}

  /** A new stage: its ARGs must be declared again. */
  beginStage(): void {
    this.allowed = new Map();
  }

  declare(key: string, value: string | undefined): void {
    this.allowed.set(key, value);
    this.referenced.add(key);
  }

  declareMeta(key: string, value: string | undefined): void {
    this.declare(key, value);
    this.meta.set(key, value);
  }

  /** `name=value` of every declared (or proxy) variable with a value, but those `env` already sets: an ENV wins over an ARG. */
  environment(env: readonly string[]): string[] {
    const set = new Set(env.map((entry) => entry.split('=', 1)[0]));
    return [...this.values(this.allowed)].filter(([key]) => !set.has(key)).map(([key, value]) => `${key}=${value}`);
  }

  /** `name=value` of the meta args, for FROM lines. */
  metaEnvironment(): string[] {
    return [...this.values(this.meta)].map(([key, value]) => `${key}=${value}`);
  }

  /** Whether a variable goes into a RUN step's recorded command: declared, or not a proxy variable. */
  isRecorded(key: string): boolean {
    return this.allowed.has(key) || !BUILTIN_ARGS.has(key);
  }

  /** The request's variables no ARG declared and that are no proxy variables, sorted. */
  unused(): string[] {
    return [...this.fromRequest.keys()].filter((key) => !this.referenced.has(key) && !BUILTIN_ARGS.has(key)).sort();
  }

  private *values(declared: ReadonlyMap<string, string | undefined>): Generator<[string, string]> {
    const keys = new Set([...declared.keys(), ...BUILTIN_ARGS]);
    for (const key of [...keys].sort()) {
      const value = this.valueOf(key, declared);
      if (value !== undefined) yield [key, value];
    }
  }

  private valueOf(key: string, declared: ReadonlyMap<string, string | undefined>): string | undefined {
    const requested = this.fromRequest.get(key);
    if (requested !== undefined && requested !== null) return requested;
    if (!declared.has(key)) return undefined;
    return declared.get(key) ?? this.meta.get(key) ?? undefined;
  }
}
