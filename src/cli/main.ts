/**
 * `staykit` command line: parses arguments, runs one command, maps failures to exit codes (2 = bad usage). Each
 * command's module is imported when it runs, so a command loads only what it uses, and `serve` can open the database
 * (in a thread of its own) while the app's modules load.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { UsageError, USAGE } from './support/usage-error.js';
import { withDatabase } from './support/database.js';

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true } as const);
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
}

const SERVER_FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'database-url': { type: 'string' },
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
  worker: { type: 'string' },
  processes: { type: 'string' },
} as const;

/** The environment's configuration with `--flag` values taking precedence over their variables. */
function configWithFlags(values: Partial<Record<keyof typeof SERVER_FLAGS, string>>) {
  const overrides: Record<string, string | undefined> = {
    PORT: values.port,
    HOST: values.host,
    DATABASE_URL: values['database-url'],
    DATA_DIR: values['data-dir'],
    LOG_LEVEL: values['log-level'],
    STAYKIT_WORKER: values.worker,
    STAYKIT_PROCESSES: values.processes,
  };
  const env = { ...process.env };
  for (const [name, value] of Object.entries(overrides)) if (value !== undefined) env[name] = value;
  return loadConfig(env);
}

function noPositionals(positionals: string[], command: string): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" for ${command}`);
}

async function run(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve': {
      const { values, positionals } = parse(rest, SERVER_FLAGS);
      noPositionals(positionals, 'serve');
      const { serve } = await import('./commands/serve.js');
      return serve(configWithFlags(values));
    }
    case 'rest': {
      const { values, positionals } = parse(rest, {
        ...SERVER_FLAGS, schema: { type: 'string' }, role: { type: 'string' }, aggregates: { type: 'boolean' }, plans: { type: 'boolean' },
        postgrest: { type: 'string' }, 'max-rows': { type: 'string' },
      });
      noPositionals(positionals, 'rest');
      const { rest: restServer } = await import('./commands/rest.js');
      return restServer(configWithFlags(values), values);
    }
    case 'worker': {
      const { values, positionals } = parse(rest, SERVER_FLAGS);
      noPositionals(positionals, 'worker');
      const { runWorkerCommand } = await import('./commands/worker.js');
      return runWorkerCommand(configWithFlags(values));
    }
    case 'webhooks': {
      const { values, positionals } = parse(rest, {
        forward: { type: 'string' }, key: { type: 'string' }, url: { type: 'string' }, secret: { type: 'string' },
      });
      const { webhooksCommand } = await import('./commands/webhooks.js');
      return webhooksCommand(positionals, values);
    }
    case 'bench':
      return (await import('./commands/bench.js')).benchCommand(rest);
    case 'migrate': {
      noPositionals(parse(rest, {}).positionals, 'migrate');
      const config = loadConfig();
      return withDatabase(async (db) => {
        // Embedded: the kept copy of the schema's catalogue follows the migrations (src/cli/support/schema-snapshot.ts).
        if (!config.databaseUrl) await (await import('./support/schema-snapshot.js')).embeddedSchemaCache(db, config.dataDir);
        console.log('database is up to date');
      }, config);
    }
    case 'seed': {
      noPositionals(parse(rest, { json: { type: 'boolean' } }).positionals, 'seed');
      const { seedCommand } = await import('./commands/seed.js');
      const config = loadConfig();
      return withDatabase(async (db) => print(await seedCommand(db, config)), config);
    }
    case 'org': {
      const { values, positionals } = parse(rest, { name: { type: 'string' }, json: { type: 'boolean' } });
      if (positionals[0] !== 'create' || positionals.length > 1) throw new UsageError('usage: staykit org create --name NAME');
      if (values.name === undefined) throw new UsageError('--name is required');
      const name = values.name;
      const { createOrganization } = await import('./commands/org.js');
      return withDatabase(async (db) => print(await createOrganization(db, name)));
    }
    case 'key': {
      const { values, positionals } = parse(rest, {
        org: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        'expires-at': { type: 'string' },
        json: { type: 'boolean' },
        publishable: { type: 'boolean' },
        widget: { type: 'string' },
        site: { type: 'string' },
      });
      const [sub, ...args] = positionals;
      const { createPublishableKeyCommand, publishableKeyArguments, revokePublishableKeyCommand } = await import('./commands/publishable-key.js');
      const { createKey, formatKeyTable, keyCreateArguments, listKeys, organizationArgument, revokeKey } = await import('./commands/key.js');
      if (sub === 'create' && values.publishable) {
        noPositionals(args, 'key create --publishable');
        const checked = publishableKeyArguments({ widget: values.widget, site: values.site, name: values.name });
        return withDatabase(async (db) => print(await createPublishableKeyCommand(db, checked)));
      }
      if (sub === 'revoke' && args[0]?.startsWith('pk_') && args.length === 1) {
        const key = args[0];
        return withDatabase(async (db) => print(await revokePublishableKeyCommand(db, key)));
      }
      if (sub === 'create') {
        noPositionals(args, 'key create');
        const checked = keyCreateArguments({ org: values.org, name: values.name, scopes: values.scopes, expiresAt: values['expires-at'] });
        return withDatabase(async (db) => print(await createKey(db, checked)));
      }
      if (sub === 'list') {
        noPositionals(args, 'key list');
        const org = organizationArgument(values.org);
        return withDatabase(async (db) => {
          const keys = await listKeys(db, org);
          console.log(values.json ? JSON.stringify(keys, null, 2) : formatKeyTable(keys));
        });
      }
      if (sub === 'revoke') {
        const keyId = args[0];
        if (keyId === undefined || args.length !== 1) throw new UsageError('usage: staykit key revoke KEY_ID');
        return withDatabase(async (db) => print(await revokeKey(db, keyId)));
      }
      throw new UsageError('usage: staykit key create|list|revoke …');
    }
    case 'backup': {
      const { values, positionals } = parse(rest, { output: { type: 'string' } });
      noPositionals(positionals, 'backup');
      if (values.output === undefined) throw new UsageError('usage: staykit backup --output FILE');
      const output = values.output;
      return print(await (await import('./commands/backup.js')).backupCommand(loadConfig(), output));
    }
    case 'restore': {
      const { values, positionals } = parse(rest, { force: { type: 'boolean' } });
      const [file, ...extra] = positionals;
      if (file === undefined || extra.length > 0) throw new UsageError('usage: staykit restore FILE [--force]');
      return print(await (await import('./commands/backup.js')).restoreCommand(loadConfig(), file, values.force ?? false));
    }
    case 'migrate-to-postgres':
      noPositionals(parse(rest, {}).positionals, 'migrate-to-postgres');
      return print(await (await import('./commands/backup.js')).migrateToPostgresCommand(loadConfig()));
    case 'user':
      return (await import('./commands/user.js')).userCommand(rest);
    case 'gen': {
      const { values, positionals } = parse(rest, { schema: { type: 'string' }, output: { type: 'string' } });
      const { genCommand } = await import('./commands/gen.js');
      return genCommand(positionals, values);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`unknown command "${command}"; run "staykit help"`);
  }
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(`staykit: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error(`staykit: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
