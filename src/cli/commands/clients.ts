/**
 * `omopterm clients`: OAuth 2.0 clients for the FHIR surface (Authentication 4). A client is a
 * client id + secret bound to one API key; `POST /oauth2/token` exchanges them for short-lived
 * access tokens that act as that key on /fhir routes.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS, MAX_ACCESS_TOKEN_LIFETIME_SECONDS } from '../../state/state-store.js';
import { dataDirOption, parsePositiveInteger, stateOption } from './options.js';
import { withState, writeListing, type StateCliOptions } from './keys.js';

/** `--token-lifetime`: whole seconds, 1 to MAX_ACCESS_TOKEN_LIFETIME_SECONDS (tokens stay short-lived). */
function parseTokenLifetime(value: string): number {
  const seconds = parsePositiveInteger('--token-lifetime')(value);
  if (seconds > MAX_ACCESS_TOKEN_LIFETIME_SECONDS) {
    throw new InvalidArgumentError(`--token-lifetime must be at most ${MAX_ACCESS_TOKEN_LIFETIME_SECONDS} seconds (got '${value}')`);
  }
  return seconds;
}

export function registerClientsCommand(program: Command): void {
  const clients = program
    .command('clients')
    .description('Manage OAuth 2.0 clients (client_credentials for POST /oauth2/token; FHIR surface only; secrets stored as SHA-256 hashes).');

  clients
    .command('create')
    .description(
      'Create a client bound to an API key and print client_id=… and client_secret=… on stdout (eval "$(omopterm clients create --key me)"). ' +
        'The secret is shown once. Its access tokens act as the key on /fhir routes: same rate limit, quota and licence.',
    )
    .addOption(new Option('--key <id-or-name>', 'the active API key (id or name, from keys list) the client stands for').env('OMOPTERM_CLIENTS_CREATE_KEY').makeOptionMandatory())
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(
      new Option('--token-lifetime <seconds>', `lifetime of the client's access tokens (expires_in), at most ${MAX_ACCESS_TOKEN_LIFETIME_SECONDS}`)
        .env('OMOPTERM_CLIENTS_CREATE_TOKEN_LIFETIME')
        .default(DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS)
        .argParser(parseTokenLifetime),
    )
    .action((options: StateCliOptions & { key: string; tokenLifetime: number }) =>
      withState(options, async (state) => {
        const { record, secret } = await state.createClient({ key: options.key, token_lifetime_seconds: options.tokenLifetime });
        process.stdout.write(`client_id=${record.client_id}\nclient_secret=${secret}\n`);
        process.stderr.write(`created client ${record.client_id} for key ${record.key_id}; store the secret now, it cannot be shown again\n`);
      }),
    );

  clients
    .command('list')
    .description('List OAuth clients with their API key (never the secrets).')
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(new Option('--json', 'print JSON').env('OMOPTERM_CLIENTS_LIST_JSON'))
    .action((options: StateCliOptions & { json?: boolean }) =>
      withState(options, async (state) => {
        const keyNames = new Map((await state.listKeys()).map((k) => [k.id, k.name]));
        const rows = (await state.listClients()).map((c) => ({ ...c, key_name: keyNames.get(c.key_id) ?? null }));
        writeListing(
          rows,
          options.json,
          'no OAuth clients yet: omopterm clients create --key <key id or name>',
          (c) => `${c.client_id}  key=${c.key_name ?? c.key_id}  token-lifetime=${c.token_lifetime_seconds}s  ${c.revoked_at ? `REVOKED ${c.revoked_at}` : 'active'}`,
        );
      }),
    );

  clients
    .command('revoke')
    .description('Revoke a client and its access tokens; servers refuse them from their next request on. (Revoking its key revokes it too.)')
    .argument('<client-id>', 'client id (from clients list)')
    .addOption(dataDirOption())
    .addOption(stateOption())
    .action((clientId: string, options: StateCliOptions) =>
      withState(options, async (state) => {
        const revoked = await state.revokeClient(clientId);
        if (!revoked) throw new Error(`no active OAuth client with id '${clientId}'`);
        process.stdout.write(`revoked ${revoked.client_id}\n`);
      }),
    );
}
