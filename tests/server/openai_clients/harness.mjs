// Shared by the client tests: starts `structure sim` (the scenario in
// tests/data/server/openai/scenario.json) and `structure serve` in front of it on free loopback
// ports, reads the simulator's counters, collects failed checks and reports them.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const dataDir = join(here, '..', '..', 'data', 'server', 'openai');
export const apiKey = 'key-acme';

// The installed version of an npm package of this folder.
export function versionOf(pkg) {
  return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
}

// Starts `argv` and resolves with its port once it prints "listening on HOST:PORT".
function startListening(argv) {
  return new Promise((resolve, reject) => {
    const proc = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${argv[1]} did not start: ${out}`)), 60000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on [^:\s]+:(\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]) });
      }
    });
    proc.on('exit', (code) => reject(new Error(`${argv[1]} exited ${code}: ${out}`)));
  });
}

// The simulator and the server: { serveUrl (ending in /v1), simUrl, stop() }.
export async function startStack(binary) {
  const sim = await startListening([binary, 'sim', '--port', '0', '--scenario',
    join(dataDir, 'scenario.json')]);
  const simUrl = `http://127.0.0.1:${sim.port}`;
  let serve;
  try {
    serve = await startListening([binary, 'serve', '--config', join(dataDir, 'serve.toml'),
      '--port', '0', '--base-url', simUrl, '--database', ':memory:']);
  } catch (e) {
    sim.proc.kill('SIGKILL');
    throw e;
  }
  return {
    serveUrl: `http://127.0.0.1:${serve.port}/v1`,
    simUrl,
    stop() {
      serve.proc.kill('SIGTERM');
      sim.proc.kill('SIGTERM');
    },
  };
}

export async function resetSim(simUrl) {
  await fetch(`${simUrl}/stats/reset`, { method: 'POST' });
}

// {requests, input, output}: what the simulator counted since the last reset.
export async function simCounts(simUrl) {
  const s = await (await fetch(`${simUrl}/stats`)).json();
  return { requests: s.requests.total ?? 0, input: s.tokens.input, output: s.tokens.output };
}

const failures = [];
export function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}
export function failureCount() {
  return failures.length;
}

// The checks every client makes of a call whose first answer broke the schema's pattern and
// minimum: the object came back valid after a re-ask, and the usage the client saw is the sum
// of every call the simulator answered.
export async function checkReasked(stack, label, object, usage) {
  const counts = await simCounts(stack.simUrl);
  check(object?.ticket === 'T-123' && object?.priority === 2,
    `${label}: valid object after the re-ask (${JSON.stringify(object)})`);
  check(counts.requests === 2, `${label}: the simulator answered 2 calls (${counts.requests})`);
  check(usage?.input === counts.input && usage?.output === counts.output,
    `${label}: usage summed over both calls (client ${JSON.stringify(usage)}, simulator ` +
    `${JSON.stringify(counts)})`);
}

// Runs `body(stack)` against a fresh stack and exits non-zero when a check failed.
export async function run(name, binary, body) {
  let stack;
  try {
    stack = await startStack(binary);
    await body(stack);
  } catch (e) {
    check(false, `${name}: ${e?.stack ?? e}`);
  } finally {
    stack?.stop();
  }
  console.log(failures.length === 0 ? `${name}: all checks passed` :
    `${name}: ${failures.length} check(s) failed`);
  process.exit(failures.length === 0 ? 0 : 1);
}
