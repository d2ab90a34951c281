// Stryker's tap runner, with test names that survive from one run to the next.
//
// The tap runner names each test (one per test file) after the file's absolute path inside Stryker's sandbox,
// a directory with a random name. Incremental mode recognises a test by its name, so every run saw only new
// tests and re-ran every mutant. Here the name is the path relative to the sandbox (the runner's working
// directory), `test/auth/scopes.test.ts`, the same in every run; everything else is the tap runner's own.
import { relative } from 'node:path';
import { commonTokens, declareFactoryPlugin, PluginKind, tokens } from '@stryker-mutator/api/plugin';
import { DryRunStatus } from '@stryker-mutator/api/test-runner';
import { createTapTestRunnerFactory } from '@stryker-mutator/tap-runner';

const createTapTestRunner = createTapTestRunnerFactory();

class StableNameTapRunner {
  constructor(tapRunner) {
    this.tapRunner = tapRunner;
  }

  capabilities() {
    return this.tapRunner.capabilities();
  }

  init() {
    return this.tapRunner.init();
  }

  async dryRun(options) {
    const result = await this.tapRunner.dryRun(options);
    if (result.status === DryRunStatus.Complete) {
      for (const test of result.tests) test.name = relative(process.cwd(), test.name);
    }
    return result;
  }

  mutantRun(options) {
    return this.tapRunner.mutantRun(options);
  }
}

function createStableNameTapRunner(injector) {
  return new StableNameTapRunner(createTapTestRunner(injector));
}
createStableNameTapRunner.inject = tokens(commonTokens.injector);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'tap-stable-names', createStableNameTapRunner)];
