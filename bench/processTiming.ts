// Timing other processes the way their users meet them: wall time of one fresh process, the CPU it and
// its descendants used (read from this process's reaped-children counters, so worker threads and helper
// processes count), and its peak resident memory (GNU time's maximum RSS) where asked for.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { percentile } from './search/metrics';

export interface Timed {
  ms: number;
  cpuMs: number;
  /** Peak RSS of the process (MB), when run with `peakRss`. */
  peakRssMb?: number;
  stdout: string;
}

/** User + system CPU of every child this process has waited for, in ms. */
export function childrenCpuMs(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** Current resident memory of a running process, in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Wrap the command in GNU time for its peak RSS (/usr/bin/time must exist). */
  peakRss?: boolean;
}

/** Runs `command args` to completion and times it; a non-zero exit throws with its stderr. */
export function timed(command: string, args: string[], options: RunOptions): Timed {
  const rssFile = options.peakRss ? path.join(os.tmpdir(), `cartograph-peak-rss-${process.pid}`) : undefined;
  const [bin, argv] = rssFile ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, command, ...args]] : [command, args];
  const cpu = childrenCpuMs();
  const started = process.hrtime.bigint();
  const child = spawnSync(bin, argv, { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 256 << 20 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const peakRssMb = rssFile ? Math.round(Number(fs.readFileSync(rssFile, 'utf8').trim().split('\n').pop()) / 1024) : undefined;
  return { ms, cpuMs: childrenCpuMs() - cpu, peakRssMb, stdout: child.stdout };
}

export interface Summary {
  runs: number;
  p50: number;
  p95: number;
  cpuP50: number;
}

export function summarize(runs: Array<Pick<Timed, 'ms' | 'cpuMs'>>): Summary {
  return {
    runs: runs.length,
    p50: Math.round(percentile(runs.map((r) => r.ms), 50)),
    p95: Math.round(percentile(runs.map((r) => r.ms), 95)),
    cpuP50: Math.round(percentile(runs.map((r) => r.cpuMs), 50)),
  };
}

/** The peer's environment: offline, no telemetry (it runs so from npm). */
export const CODEGRAPH_ENV = { ...process.env, CODEGRAPH_NO_DOWNLOAD: '1', CODEGRAPH_TELEMETRY: '0' };
