/**
 * The seed documents use vendor-neutral names; a real Docker daemon uses Docker's.
 * One table maps them, for the harness and for the reference alike.
 */
export type DialectName = 'engine' | 'docker';

export interface Dialect {
  name: DialectName;
  pathStatHeader: string;
  rawStreamContentType: string;
  buildFileName: string;
  /** the POST /build query parameter naming the build file's path in the context */
  buildFileQuery: string;
  defaultSocket: string;
  /** GET /info names the daemon's root directory after the vendor */
  rootDirInfoField: string;
}

export const DIALECTS: Record<DialectName, Dialect> = {
  engine: {
    name: 'engine',
    pathStatHeader: 'X-Engine-Container-Path-Stat',
    rawStreamContentType: 'application/vnd.engine.raw-stream',
    buildFileName: 'Buildfile',
    buildFileQuery: 'buildfile',
    defaultSocket: '/var/run/engine.sock',
    rootDirInfoField: 'EngineRootDir',
  },
  docker: {
    name: 'docker',
    pathStatHeader: 'X-Docker-Container-Path-Stat',
    rawStreamContentType: 'application/vnd.docker.raw-stream',
    buildFileName: 'Dockerfile',
    buildFileQuery: 'dockerfile',
    defaultSocket: '/var/run/docker.sock',
    rootDirInfoField: 'DockerRootDir',
  },
};

export function parseDialect(text: string): Dialect {
  if (text === 'engine' || text === 'docker') return DIALECTS[text];
  throw new Error(`--dialect: expected engine or docker, got ${JSON.stringify(text)}`);
}
