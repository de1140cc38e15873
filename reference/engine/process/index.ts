/**
 * The simulated process: what the container state machine and exec instances start, and the signal
 * parsing the HTTP layer shares with it.
 */
export { ExecError, ProcessStdin, SimulatedProcess, startProcess, type StartProcessOptions } from './simulated-process.ts';
export { PidNamespace, type PidNamespaceOptions, type ProcessTableRow } from './pid-namespace.ts';
export { OutputStream } from './output-stream.ts';
export { ManualScheduler, realScheduler, type Scheduler, type TimerHandle } from './scheduler.ts';
export { signalName, signalNumber, UnknownSignalError } from './signals.ts';
export { SIMULATED_APPLETS } from './applet-table.ts';
export type { ExitStatus } from './task.ts';
export type { DnsAnswer, NetworkView } from './program.ts';
