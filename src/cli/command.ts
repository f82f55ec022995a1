/** What a CLI command sees of the process: injected so tests can run commands in-process. */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** One `review-data` sub-command. `run` resolves to the process exit status. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

/** A usage error: the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A problem the operator fixes by changing a setting (a port in use): one line, exit status 2. */
export class OperatorError extends Error {
  override name = 'OperatorError';
}
