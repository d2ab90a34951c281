/** Runs `staykit serve` as a child process (as an operator would) and finds the address it listens on. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function startServerProcess(env: Record<string, string>, args: string[] = []): Promise<ServerProcess> {
  return startChildServer(['bin/staykit.js', 'serve', '--port', '0', ...args], {
    // Tests that drive traffic are not about rate limits (test/limits is): lift them unless a test sets its own.
    STAYKIT_WORKER: 'off',
    LOG_LEVEL: 'warn',
    STAYKIT_RATE_LIMIT: '1000000',
    STAYKIT_RATE_LIMIT_BURST: '1000000',
    ...env,
  });
}

/** Runs `node <args>` and resolves once it prints "listening on <url>". */
export function startChildServer(args: string[], env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 180 s:\n${output}`)), 180_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
