// The gateway's edges through the official OpenAI SDK (issue 44, items 10-17): a certificate the
// server does not accept (502 failed_precondition), a spent quota (403 insufficient_quota, never
// retried by the SDK), two tools with one name, the tool_choice shapes the SDK types allow, a
// trailing slash, models.retrieve of a bare name, a Retry-After longer than the call's time,
// and registry schemas as models (schema:ticket) for clients that send no schema.
// Usage: node gateway_test.mjs STRUCTURE_BINARY
import OpenAI from 'openai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  apiKey, check, checkReasked, resetSim, run, serverKeyToml, simCounts, startProcess, versionOf,
} from './harness.mjs';

// The ticket schema of the scenario (tests/data/server/openai/scenario.json): the first answer
// of CASE-REASK breaks the pattern and the minimum, the re-ask passes.
const ticketSchema = {
  type: 'object',
  properties: {
    ticket: { type: 'string', pattern: '^T-[0-9]{3}$' },
    priority: { type: 'integer', minimum: 1 },
  },
  required: ['ticket', 'priority'],
  additionalProperties: false,
};

// The SDK's error for `call`, or null when it succeeded.
async function errorOf(call) {
  try {
    await call();
    return null;
  } catch (e) {
    return e;
  }
}

const describe = (e) => `${e?.constructor?.name} ${e?.status} ${e?.code} ${e?.message}`;

// A TLS server whose certificate nobody trusts (openssl s_server, self-signed) and a second
// `structure serve` whose only provider is behind it: { serveUrl }.
async function startUntrustedStack(binary, dir) {
  const key = join(dir, 'k.pem');
  const cert = join(dir, 'c.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt',
    'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-subj',
    '/CN=localhost', '-days', '1'], { stdio: 'ignore' });
  const tls = await startProcess(['openssl', 's_server', '-4', '-www', '-accept', '0', '-cert', cert, '-key',
    key], /ACCEPT \S*:(\d+)/);
  const config = join(dir, 'serve.toml');
  writeFileSync(config, '[providers.remote]\nkind = "openai"\n' +
    `base_url = "https://127.0.0.1:${tls.match[1]}/v1"\nmodel = "gpt-4o-mini"\n` +
    'api_key_env = "GATEWAY_TEST_KEY"\n[aliases]\n"default:fast" = "remote"\n' +
    '[server]\nlisten = "127.0.0.1:0"\n' + serverKeyToml(apiKey, 'acme'));
  process.env.GATEWAY_TEST_KEY = 'sk-test';
  const serve = await startProcess([binary, 'serve', '--config', config, '--port', '0',
    '--database', ':memory:']);
  return { serveUrl: `http://127.0.0.1:${serve.match[1]}/v1` };
}

console.log(`client: openai ${versionOf('openai')}`);
await run('gateway', process.argv[2], async (stack) => {
  const client = new OpenAI({ apiKey, baseURL: stack.serveUrl, maxRetries: 0 });
  const ticketText = (text) => [{ role: 'user', content: text }];

  // 11: a spent quota is a 403 the SDK does not retry, even when told to retry twice.
  await resetSim(stack.simUrl);
  const retrying = new OpenAI({ apiKey, baseURL: stack.serveUrl, maxRetries: 2 });
  const quota = await errorOf(() => retrying.chat.completions.create({
    model: 'default:fast', messages: ticketText('CASE-QUOTA ticket T-123'),
    response_format: { type: 'json_object' },
  }));
  check(quota instanceof OpenAI.PermissionDeniedError && quota.code === 'insufficient_quota' &&
    quota.type === 'insufficient_quota' && quota.message.includes('You exceeded your current quota'),
  `quota: PermissionDeniedError insufficient_quota (${describe(quota)})`);
  const quotaCalls = (await simCounts(stack.simUrl)).requests;
  check(quotaCalls === 1, `quota: the provider was called once, not retried (${quotaCalls})`);

  // 16: a Retry-After longer than the call's time ends the call at once, saying what was asked.
  await resetSim(stack.simUrl);
  const started = Date.now();
  const wait = await errorOf(() => client.chat.completions.create({
    model: 'default:fast', messages: ticketText('CASE-LONG-WAIT ticket T-123'),
    response_format: { type: 'json_object' },
  }));
  check(wait?.status === 504 && wait.code === 'deadline_exceeded' &&
    wait.message.includes('asked to wait 100000.0 s (Retry-After)') &&
    wait.message.includes('so the call ends now instead of waiting'),
  `Retry-After 100000: 504 naming the wait asked for (${describe(wait)})`);
  check(Date.now() - started < 30000, `Retry-After 100000: answered at once (${Date.now() - started} ms)`);

  // 12: two tools with one function name.
  const dup = await errorOf(() => client.chat.completions.create({
    model: 'default:fast', messages: ticketText('T-123'),
    tools: [{ type: 'function', function: { name: 'extract', parameters: ticketSchema } },
      { type: 'function', function: { name: 'extract', parameters: { type: 'object' } } }],
    tool_choice: { type: 'function', function: { name: 'extract' } },
  }));
  check(dup instanceof OpenAI.BadRequestError && dup.param === 'tools[1].function.name' &&
    dup.message.includes('is also the name of tools[0]'),
  `duplicate tool names: BadRequestError naming both (${describe(dup)})`);

  // 14: every other tool_choice shape of the SDK's types says what to send instead.
  const tools = [{ type: 'function', function: { name: 'extract', parameters: ticketSchema } }];
  for (const [label, choice] of [
    ['allowed_tools', { type: 'allowed_tools', allowed_tools: { mode: 'required',
      tools: [{ type: 'function', function: { name: 'extract' } }] } }],
    ['custom', { type: 'custom', custom: { name: 'extract' } }],
  ]) {
    const e = await errorOf(() => client.chat.completions.create({
      model: 'default:fast', messages: ticketText('T-123'), tools, tool_choice: choice,
    }));
    check(e instanceof OpenAI.BadRequestError && e.param === 'tool_choice' &&
      e.message.includes('send tool_choice {"type": "function", "function": {"name": "extract"}}'),
    `tool_choice ${label}: BadRequestError saying what to send (${describe(e)})`);
  }
  const rtools = [{ type: 'function', name: 'extract', parameters: ticketSchema, strict: false }];
  for (const [label, choice] of [
    ['allowed_tools', { type: 'allowed_tools', mode: 'auto',
      tools: [{ type: 'function', name: 'extract' }] }],
    ['mcp', { type: 'mcp', server_label: 'crm' }],
    ['file_search', { type: 'file_search' }],
    ['shell', { type: 'shell' }],
  ]) {
    const e = await errorOf(() => client.responses.create({
      model: 'default:fast', input: 'T-123', tools: rtools, tool_choice: choice,
    }));
    check(e instanceof OpenAI.BadRequestError && e.param === 'tool_choice' &&
      e.message.includes('send tool_choice {"type": "function", "name": "extract"}'),
    `responses tool_choice ${label}: BadRequestError saying what to send (${describe(e)})`);
  }

  // 15: a trailing slash is the same route.
  await resetSim(stack.simUrl);
  const slashed = await client.post('/chat/completions/', { body: {
    model: 'default:fast', messages: ticketText('CASE-REASK ticket T-123 has priority 2'),
    response_format: { type: 'json_schema', json_schema: { name: 'ticket', schema: ticketSchema } },
  } });
  check(slashed?.object === 'chat.completion' &&
    JSON.parse(slashed.choices[0].message.content).ticket === 'T-123',
  `POST /v1/chat/completions/: a chat completion (${JSON.stringify(slashed?.object)})`);

  // 13: models.retrieve resolves ids as a request's model is resolved.
  const bare = await client.models.retrieve('sim-1');
  check(bare.id === 'sim-1' && bare.owned_by === 'simulator',
    `models.retrieve('sim-1'): the entry (${JSON.stringify(bare)})`);
  const alias = await client.models.retrieve('default:fast');
  check(alias.id === 'default:fast' && alias.owned_by === 'simulator',
    `models.retrieve('default:fast'): the entry (${JSON.stringify(alias)})`);
  const ambiguous = await errorOf(() => client.models.retrieve('shared-model'));
  check(ambiguous instanceof OpenAI.NotFoundError && ambiguous.message.includes('backup/shared-model'),
    `models.retrieve of a name two providers list: NotFoundError naming both (${describe(ambiguous)})`);

  // 17: a registry schema as the model, for a client that sends no schema.
  const put = await fetch(`${stack.serveUrl}/schemas/ticket`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ schema: ticketSchema, version: '1.2' }),
  });
  check(put.status === 200, `PUT /v1/schemas/ticket: 200 (${put.status})`);
  const listed = [];
  for await (const m of client.models.list()) listed.push(m.id);
  check(listed.includes('schema:ticket') && listed.includes('sim-1') &&
    !listed.includes('shared-model'),
  `models.list: schema:ticket and the unambiguous bare names (${listed.join(', ')})`);
  for (const [label, format] of [['json_object', { type: 'json_object' }], ['text', undefined]]) {
    await resetSim(stack.simUrl);
    const answer = await client.chat.completions.create({
      model: 'schema:ticket', messages: ticketText('CASE-REASK ticket T-123 has priority 2'),
      ...(format ? { response_format: format } : {}),
    });
    const u = answer.usage;
    await checkReasked(stack, `schema:ticket (${label})`,
      JSON.parse(answer.choices[0].message.content),
      { input: u?.prompt_tokens, output: u?.completion_tokens });
    check(answer.model === 'schema:ticket' && answer.structure?.schemaOrigin === 'registry:tenant:acme',
      `schema:ticket (${label}): model and schemaOrigin (${answer.model}, ${answer.structure?.schemaOrigin})`);
  }
  await resetSim(stack.simUrl);
  const pinned = await client.responses.create({
    model: 'schema:ticket@1.2', input: 'CASE-REASK ticket T-123 has priority 2',
    text: { format: { type: 'json_object' } },
  });
  await checkReasked(stack, 'responses schema:ticket@1.2', JSON.parse(pinned.output_text),
    { input: pinned.usage?.input_tokens, output: pinned.usage?.output_tokens });
  const retrieved = await client.models.retrieve('schema:ticket@1.1');
  check(retrieved.id === 'schema:ticket@1.1' && retrieved.owned_by === 'registry:tenant:acme',
    `models.retrieve('schema:ticket@1.1'): served by 1.2 (${JSON.stringify(retrieved)})`);
  const newer = await errorOf(() => client.models.retrieve('schema:ticket@1.3'));
  check(newer instanceof OpenAI.NotFoundError && newer.message.includes('at version 1.2'),
    `models.retrieve('schema:ticket@1.3'): NotFoundError naming 1.2 (${describe(newer)})`);
  const unknown = await errorOf(() => client.chat.completions.create({
    model: 'schema:nosuch', messages: ticketText('T-123'),
  }));
  check(unknown instanceof OpenAI.NotFoundError && unknown.code === 'model_not_found',
    `schema:nosuch: NotFoundError model_not_found (${describe(unknown)})`);

  // 10: a provider certificate the server does not accept.
  const dir = mkdtempSync(join(tmpdir(), 'gateway-'));
  try {
    const untrusted = await startUntrustedStack(process.argv[2], dir);
    const tlsClient = new OpenAI({ apiKey, baseURL: untrusted.serveUrl, maxRetries: 0 });
    const tls = await errorOf(() => tlsClient.chat.completions.create({
      model: 'default:fast', messages: ticketText('T-123'), response_format: { type: 'json_object' },
    }));
    check(tls?.status === 502 && tls.code === 'failed_precondition' && tls.type === 'server_error' &&
      tls.message.includes('TLS certificate of 127.0.0.1 not accepted') &&
      tls.message.includes('self-signed'),
    `untrusted certificate: 502 failed_precondition naming the host and the reason (${describe(tls)})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
