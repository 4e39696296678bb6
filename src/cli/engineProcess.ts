// The CLI's commands that load LanceDB run in a child process whose stderr passes through a filter.
// LanceDB's Rust threads print a panic report straight to file descriptor 2 (and with RUST_BACKTRACE a
// 20-line backtrace) before the failure reaches us as an error, which the CLI then reports in one line
// with what to run; Node cannot redirect a native library's fd 2 in-process. The child costs one Node
// start (~50 ms) on commands that take seconds anyway; answers from the query snapshot never get here.
import { spawn } from 'node:child_process';

const CHILD_ENV = 'CARTOGRAPH_ENGINE_PROCESS';
/** Set in the child when the user's stderr is a terminal, so that `index` still draws its progress bar. */
export const STDERR_TTY_ENV = 'CARTOGRAPH_STDERR_TTY';

/**
 * The environment of a child that loads the native libraries (LanceDB's Rust threads, ONNX Runtime):
 * no Rust panic backtraces on stderr, and glibc's malloc held to two arenas. Its default (eight per
 * core, taken by native threads as they allocate) left Django's graph open in one process at 617 MB
 * resident where two arenas hold 432 MB, the JavaScript heap being 199 MB either way. A value the
 * user set wins.
 */
export function nativeLibraryEnv(): NodeJS.ProcessEnv {
  return { RUST_BACKTRACE: '0', MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
}

/** True in the child: the command runs here. */
export function isEngineProcess(): boolean {
  return process.env[CHILD_ENV] === '1';
}

/**
 * Runs this same command line in a child and resolves with its exit code. The child ends with this
 * process (an IPC channel closes when the parent dies, even by kill -9), and signals are passed on.
 */
export function runInEngineProcess(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: ['inherit', 'inherit', 'pipe', 'ipc'],
    env: { ...process.env, ...nativeLibraryEnv(), [CHILD_ENV]: '1', [STDERR_TTY_ENV]: process.stderr.isTTY ? '1' : '' },
  });
  const filter = new PanicFilter((text) => process.stderr.write(text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => filter.write(text));
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      filter.end();
      process.off('SIGINT', forward).off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1));
    });
  });
}

/** In the child: exit when the parent goes away, without the channel keeping the process alive. */
export function followParent(): void {
  if (!process.send) return;
  process.on('disconnect', () => process.exit(130));
  process.channel?.unref();
}

/**
 * Drops Rust panic reports from text written to stderr: from a line `thread '…' panicked at …` to the
 * `note: … RUST_BACKTRACE …` line that ends one (or to the next line of ours). Everything else passes
 * at once, partial lines too (a progress bar redraws its line without a newline).
 */
export class PanicFilter {
  private skipping = false;
  private partial = '';

  constructor(private readonly out: (text: string) => void) {}

  write(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop()!;
    let kept = '';
    for (const line of lines) if (this.keep(line)) kept += `${line}\n`;
    // A partial line is held back only while it could be the start of a panic report.
    if (!this.skipping && !this.partial.startsWith('thread ') && !'thread '.startsWith(this.partial)) {
      kept += this.partial;
      this.partial = '';
    }
    if (kept) this.out(kept);
  }

  end(): void {
    if (this.partial && this.keep(this.partial)) this.out(this.partial);
    this.partial = '';
  }

  private keep(line: string): boolean {
    if (/^thread '.*' (\(\d+\) )?panicked at /.test(line)) {
      this.skipping = true;
      return false;
    }
    if (!this.skipping) return true;
    if (/^note: .*RUST_BACKTRACE/.test(line)) {
      this.skipping = false;
      return false;
    }
    if (line.startsWith('cartograph')) {
      this.skipping = false;
      return true;
    }
    return false;
  }
}
