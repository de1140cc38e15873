/**
 * The shell's variables. Those it got from its environment, and those `export`ed, go into the
 * environment of the commands it runs; the environment keeps the order it came in, new ones last.
 */

interface Variable {
  /** undefined for `export NAME` of a NAME not set yet */
  value: string | undefined;
  exported: boolean;
}

export class ShellVariables {
  private readonly variables = new Map<string, Variable>();

  static fromEnvironment(env: readonly string[]): ShellVariables {
    const variables = new ShellVariables();
    for (const entry of env) {
      const equals = entry.indexOf('=');
      if (equals > 0) variables.set(entry.slice(0, equals), entry.slice(equals + 1), { export: true });
    }
    return variables;
  }

  get(name: string): string | undefined {
    return this.variables.get(name)?.value;
  }

  set(name: string, value: string, options: { export?: boolean } = {}): void {
    const existing = this.variables.get(name);
    if (existing) {
      existing.value = value;
      if (options.export) existing.exported = true;
    } else this.variables.set(name, { value, exported: options.export ?? false });
  }

  export(name: string): void {
    const existing = this.variables.get(name);
    if (existing) existing.exported = true;
    else this.variables.set(name, { value: undefined, exported: true });
  }

  unset(name: string): void {
    this.variables.delete(name);
  }

  /** `NAME=value` of the exported variables, plus `overrides` (a command's own assignments). */
  environment(overrides: ReadonlyArray<readonly [string, string]> = []): string[] {
    const entries = new Map<string, string>();
    for (const [name, variable] of this.variables) if (variable.exported && variable.value !== undefined) entries.set(name, variable.value);
    for (const [name, value] of overrides) entries.set(name, value);
    return [...entries].map(([name, value]) => `${name}=${value}`);
  }

  /** The exported names with their values, for `export -p`. */
  exported(): Array<[string, string | undefined]> {
    return [...this.variables].filter(([, variable]) => variable.exported).map(([name, variable]) => [name, variable.value]);
  }

  /** A subshell's copy. */
  clone(): ShellVariables {
    const copy = new ShellVariables();
    for (const [name, variable] of this.variables) copy.variables.set(name, { ...variable });
    return copy;
  }
}
