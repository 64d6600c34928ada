// The console of `structure serve` in a real browser: Debian's headless Chromium driven by
// puppeteer-core, against `structure sim` (the demo scenario) and `structure serve` started on
// free loopback ports. Checks each page end to end, the CSP, rendering as text, tenant scope,
// keyboard use and WCAG AA (axe-core); writes a screenshot of each page into OUT_DIR.
//
// Usage: node console_test.mjs STRUCTURE_BINARY REPO_DIR OUT_DIR
// Fails (exit 1) on any failed check, console error, page error or unexpected failed request.
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import puppeteer from 'puppeteer-core';

const require = createRequire(import.meta.url);
const [bin, repo, outDir] = process.argv.slice(2);
if (!bin || !repo || !outDir) {
  console.error('usage: node console_test.mjs STRUCTURE_BINARY REPO_DIR OUT_DIR');
  process.exit(2);
}
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const STEP_MS = 20000; // bound on every wait
const tmp = mkdtempSync(join(tmpdir(), 'structure-console-'));
mkdirSync(outDir, { recursive: true });
const children = [];
let failures = 0;
let passes = 0;

function check(cond, what) {
  if (cond) {
    passes++;
    console.log(`ok - ${what}`);
  } else {
    failures++;
    console.log(`not ok - ${what}`);
  }
}

function start(args, env = {}) {
  const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${err}`)), STEP_MS);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on [^:\s]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${err}`)));
  });
}

const sha = (s) => createHash('sha256').update(s).digest('hex');
const KEY_ACME = 'console-test-key-acme';
const KEY_OTHER = 'console-test-key-other';
const SECRET = 'sk-console-secret-never-in-the-browser';

async function main() {
  const simPort = await start(['sim', '--port', '0', '--scenario', join(repo, 'examples/demo/scenario.json'), '--latency-ms', '5']);
  const simUrl = `http://127.0.0.1:${simPort}/v1`;
  const config = join(tmp, 'console.toml');
  writeFileSync(
    config,
    `[providers.simulator]
kind = "openai"
base_url = "${simUrl}"
api_key_env = "CONSOLE_TEST_PROVIDER_KEY"
model = "sim-model"

[server]
keep_prompts = true
recent_calls = 500

[[server.keys]]
name = "acme-console"
sha256 = "${sha(KEY_ACME)}"
tenant = "acme"
projects = ["*"]

[[server.keys]]
name = "other-console"
sha256 = "${sha(KEY_OTHER)}"
tenant = "other"
projects = []

[server.prices."simulator/sim-model"]
input = 0.15
cached_input = 0.075
output = 0.6
`,
  );
  const port = await start(['serve', '--config', config, '--port', '0', '--ui-base', '/structure/', '--database', ':memory:'], {
    CONSOLE_TEST_PROVIDER_KEY: SECRET,
  });
  const root = `http://127.0.0.1:${port}/structure`;
  const api = async (method, path, body, key = KEY_ACME) => {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(STEP_MS),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : null };
  };

  // --- HTTP-level checks: headers, prefix, scope ---------------------------------------------
  const page0 = await fetch(`${root}/ui/`, { signal: AbortSignal.timeout(STEP_MS) });
  const csp = page0.headers.get('content-security-policy') || '';
  check(page0.status === 200 && csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), 'the page is served behind the prefix with a CSP without inline scripts');
  const html = await page0.text();
  check(!/<script(?![^>]*\bsrc=)[^>]*>/.test(html) && !/\son[a-z]+=/.test(html), 'the page has no inline script or handler');
  const redirect = await fetch(`${root}/ui`, { redirect: 'manual', signal: AbortSignal.timeout(STEP_MS) });
  check(redirect.status === 308 && redirect.headers.get('location') === 'ui/', '/ui redirects relatively to ui/');
  check((await api('GET', '/v1/console/info', undefined, 'wrong')).status === 401, 'a wrong key gets 401 on the console API');

  // A batch through the API (the demo inputs), for the insights page and the recent calls.
  const inputs = readFileSync(join(repo, 'examples/demo/inputs.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
  const lines = [];
  for (const l of inputs) {
    try {
      lines.push(JSON.parse(l));
    } catch {
      /* the demo's deliberately broken line */
    }
  }
  const evidenceLines = readFileSync(join(repo, 'examples/demo/evidence.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const queue = [...lines, ...evidenceLines.map((l) => ({ ...l, evidence: 'report' }))];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (queue.length) {
        const r = queue.shift();
        await api('POST', '/v1/structure', r);
      }
    }),
  );
  const mine = await api('GET', '/v1/console/calls');
  const theirs = await api('GET', '/v1/console/calls', undefined, KEY_OTHER);
  check(mine.json.calls.length === lines.length + evidenceLines.length, `the ring holds the tenant's ${lines.length + evidenceLines.length} calls`);
  check(theirs.status === 200 && theirs.json.calls.length === 0, "another tenant's key sees none of them");
  const someId = mine.json.calls[0].id;
  check((await api('GET', `/v1/console/calls/${someId}`, undefined, KEY_OTHER)).status === 404, "another tenant's call is answered 404");
  const otherStats = await api('GET', '/v1/console/stats', undefined, KEY_OTHER);
  check(Object.values(otherStats.json.schemas).every((s) => s.calls === 0), "another tenant's stats count none of these calls");

  // The batch CLI's results file with evidence, to open in the page.
  const resultsFile = join(tmp, 'evidence-results.jsonl');
  try {
    execFileSync(bin, ['batch', join(repo, 'examples/demo/evidence.jsonl'), '-o', resultsFile, '--ordered', '--base-url', simUrl, '--database', ':memory:', '--evidence', 'report', '--config', config], {
      env: { ...process.env, CONSOLE_TEST_PROVIDER_KEY: SECRET },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60000,
    });
  } catch (e) {
    if (e.status !== 1) throw e; // 1 = some record not ok
  }

  // --- The browser --------------------------------------------------------------------------
  const profile = join(tmp, 'chromium-profile');
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    protocolTimeout: 60000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', `--user-data-dir=${profile}`, '--window-size=1280,900'],
  });
  try {
    await runPages(browser, root, port, resultsFile);
  } finally {
    await browser.close();
  }
}

// Responses the test provokes on purpose: the breaking schema change (400), the bad name (400).
const expectedFailures = [];
function expectFailure(method, pathPart, status) {
  expectedFailures.push({ method, pathPart, status });
}
function isExpected(method, url, status) {
  return expectedFailures.some((e) => e.method === method && url.includes(e.pathPart) && e.status === status);
}

async function runPages(browser, root, port, resultsFile) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.setDefaultTimeout(STEP_MS);
  const problems = [];
  const bodies = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const url = (m.location() && m.location().url) || '';
    if (/Failed to load resource: the server responded with a status of (\d+)/.test(m.text()) && expectedFailures.some((e) => url.includes(e.pathPart))) return;
    problems.push(`console error: ${m.text()} ${url}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure() && r.failure().errorText}`));
  page.on('response', async (r) => {
    if (r.status() >= 400 && !isExpected(r.request().method(), r.url(), r.status())) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
    try {
      bodies.push(await r.text());
    } catch {
      /* redirects and aborted bodies */
    }
  });
  const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const axeCheck = async (name) => {
    await page.evaluate(axeSource); // evaluated through the DevTools protocol: not an inline script
    const result = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }));
    const v = result.violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    check(v.length === 0, `${name}: no WCAG 2.1 AA violation (axe-core)${v.length ? `: ${v.join('; ')}` : ''}`);
  };
  const shot = (name) => page.screenshot({ path: join(outDir, `console-${name}.png`), fullPage: true });
  const waitText = (text) => page.waitForFunction((t) => document.body.innerText.includes(t), { timeout: STEP_MS }, text);

  // Sign in through the fragment: the key never goes to the server in a URL.
  await page.goto(`${root}/ui/#key=${KEY_ACME}&/playground`, { waitUntil: 'load' });
  await waitText('tenant acme');
  check(!page.url().includes(KEY_ACME), 'the key left the address bar');

  // --- Keyboard: the skip link comes first and moves focus to the content --------------------
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement.classList.contains('skip')), 'Tab reaches the skip link first');
  await page.keyboard.press('Enter');
  check(await page.evaluate(() => document.activeElement.id === 'main'), 'the skip link moves focus to the content');

  // --- Playground: a call the model gets wrong first -----------------------------------------
  const prompt = JSON.parse(readFileSync(join(process.argv[3], 'examples/demo/inputs.jsonl'), 'utf8').split('\n')[0]).prompt;
  await page.$eval('#kind-named', (el) => el.click());
  await setField(page, 'Prompt', prompt);
  await setField(page, 'Schema name', 'support-ticket');
  await page.click('form button[type=submit]');
  await page.waitForSelector('.rounds .round', { timeout: STEP_MS });
  const rounds = await page.$$eval('.rounds .round', (els) => els.map((e) => ({ text: e.innerText, verdict: e.querySelector('.badge').textContent })));
  check(rounds.length === 2, `the playground shows each iteration (${rounds.length})`);
  check(rounds[0] && rounds[0].verdict === 'rejected' && rounds[0].text.includes('Reason sent back') && rounds[0].text.includes('Validator messages'), 'iteration 1: rejected, with the validator messages and the reason sent back');
  check(rounds[1] && rounds[1].verdict === 'accepted', 'iteration 2: accepted');
  check(await page.$$eval('.rounds details summary', (s) => s.some((x) => x.textContent.includes('Lowered schema sent'))), 'each iteration has the lowered schema that was sent');
  const usage = await page.$eval('.usage', (e) => e.textContent);
  check(/cost \$\d/.test(usage), `usage and cost from the configured prices: ${usage}`);
  const snippets = await page.$$eval('.snippet pre', (p) => p.map((x) => x.textContent));
  check(snippets.length === 3 && snippets[0].startsWith('structure run') && snippets[1].startsWith('curl') && snippets[2].includes('response_format') && snippets[2].includes(`${root}/v1`), 'the call is offered as structure run, curl and an OpenAI-SDK snippet');
  check(snippets.every((s) => !s.includes(KEY_ACME)), 'no snippet holds the key');
  await axeCheck('playground');
  await shot('playground');

  // Text, never HTML: a prompt and a schema name holding markup.
  const xss = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
  await setField(page, 'Prompt', `Hello ${xss}`);
  await setField(page, 'Schema name', '<script>alert(1)</script>');
  expectFailure('POST', '/v1/structure', 400);
  await page.click('form button[type=submit]');
  await page.waitForSelector('.result .card, .result .notice');
  await new Promise((r) => setTimeout(r, 300));
  check((await page.evaluate(() => window.__xss)) === undefined && (await page.$('.result img')) === null, 'markup in a prompt and a schema name is shown as text, never run');

  // --- Evidence: a call with evidence, then the view ------------------------------------------
  const ev = JSON.parse(readFileSync(join(process.argv[3], 'examples/demo/evidence.jsonl'), 'utf8').split('\n')[2]);
  await setField(page, 'Prompt', ev.prompt);
  await setField(page, 'Schema name', 'contact');
  await page.select(await labelled(page, 'Evidence'), 'report');
  await page.click('form button[type=submit]');
  await page.waitForFunction(() => [...document.querySelectorAll('.result button')].some((b) => b.textContent.includes('evidence view')), { timeout: STEP_MS });
  await page.evaluate(() => [...document.querySelectorAll('.result button')].find((b) => b.textContent.includes('evidence view')).click());
  await page.waitForSelector('mark.span');
  await checkSpans(page, ev.prompt, 'single call');
  check(await page.$$eval('.field-button.ungrounded', (b) => b.length > 0), 'the invented job title is marked ungrounded');
  // Click a field -> its span; click a span -> its field; Enter on a span works as a click.
  const first = await page.$eval('.field-button:not(.ungrounded)', (b) => b.dataset.pointer);
  await page.click(`.field-button[data-pointer="${first}"]`);
  check(await page.$$eval('mark.span.active', (m, p) => m.length > 0 && m.every((x) => JSON.parse(x.dataset.ptrs).includes(p)), first), 'clicking a field highlights its span');
  const lastMark = (await page.$$('mark.span')).pop();
  const lastPtr = await lastMark.evaluate((m) => JSON.parse(m.dataset.ptrs)[0]);
  await lastMark.focus();
  await page.keyboard.press('Enter');
  check(await page.$eval(`.field-button[data-pointer="${lastPtr}"]`, (b) => b.getAttribute('aria-pressed') === 'true'), 'a span (by keyboard) selects its field');
  await axeCheck('evidence');
  await shot('evidence');

  // A batch results file and its inputs, read by the page.
  const [resultsInput, inputsInput] = [await page.$('#results-file'), await page.$('#inputs-file')];
  await resultsInput.uploadFile(resultsFile);
  await inputsInput.uploadFile(join(process.argv[3], 'examples/demo/evidence.jsonl'));
  await page.evaluate(() => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Open').click());
  await page.waitForSelector('.records li');
  check((await page.$$('.records li')).length === 3, 'the batch file shows its 3 records');
  const evLines = readFileSync(join(process.argv[3], 'examples/demo/evidence.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  for (let i = 0; i < 3; i++) {
    await page.evaluate((n) => document.querySelectorAll('.records li button')[n].click(), i);
    await page.waitForFunction((id) => document.querySelector('.evidence-view h2') && document.querySelector('.evidence-view h2').textContent.includes(id), { timeout: STEP_MS }, evLines[i].id);
    await checkSpans(page, evLines[i].prompt, `batch record ${evLines[i].id}`);
  }
  await shot('evidence-batch');

  // --- Registry: a compatible and a breaking change, history, markup in a manual --------------
  await go(page, '#/registry?name=contact');
  await page.waitForSelector('table.cascade');
  await page.waitForFunction(() => document.querySelector('.live .notice'), { timeout: STEP_MS });
  const schema = JSON.parse(await page.$eval('.editor textarea', (t) => t.value));
  schema.properties.nickname = { type: 'string', description: 'what friends call them' };
  await setTextarea(page, '.editor textarea', JSON.stringify(schema, null, 2));
  await setField(page, 'Version (MAJOR.MINOR)', '1.1');
  const manualBox = (await page.$$('.editor textarea'))[1];
  await manualBox.click({ clickCount: 3 });
  await manualBox.type('# contact\n<script>window.__xss=3</script> Use the nickname field for nicknames.');
  await page.waitForFunction(() => document.querySelector('.live').innerText.includes('would be accepted'), { timeout: STEP_MS });
  check(await page.$$eval('table.providers tbody tr', (r) => r.length >= 1), 'the check shows how each configured provider would be asked');
  await clickButton(page, 'Save to tenant acme');
  await page.waitForFunction(() => document.querySelector('.editor').innerText.includes('Saved contact 1.1'), { timeout: STEP_MS });
  check(true, 'a compatible minor change is saved');
  check(await page.$$eval('.history li', (l) => l.length === 1 && l[0].textContent.includes('1.1')), 'the history lists the saved version');
  check((await page.evaluate(() => window.__xss)) === undefined, 'a manual holding markup is not run');
  // Breaking: a new required property.
  schema.required = [...(schema.required || []), 'nickname'];
  await setTextarea(page, '.editor textarea', JSON.stringify(schema, null, 2));
  await setField(page, 'Version (MAJOR.MINOR)', '1.2');
  await page.waitForFunction(() => document.querySelector('.live').innerText.includes('would be refused'), { timeout: STEP_MS });
  expectFailure('PUT', '/v1/schemas/contact', 400);
  await clickButton(page, 'Save to tenant acme');
  await page.waitForFunction(() => document.querySelector('.editor').innerText.includes('Not saved'), { timeout: STEP_MS });
  const refusal = await page.$eval('.editor', (e) => e.innerText);
  check(refusal.includes('contact-v2') && refusal.includes('now required'), 'a breaking change is refused, naming the change and a new name');
  await axeCheck('registry');
  await shot('registry');
  // A new schema whose name is markup: refused by the API, shown as text.
  for (const m of ['GET', 'POST']) expectFailure(m, '/v1/schemas/%3Cimg', 400);
  await setField(page, 'New schema name', '<img src=x onerror="window.__xss=4">');
  await clickButton(page, 'New schema');
  await page.waitForSelector('.editor h2');
  check((await page.evaluate(() => window.__xss)) === undefined && (await page.$('.editor h2 img')) === null, 'a schema name holding markup is shown as text');

  // --- Insights after the batch ------------------------------------------------------------------
  await go(page, '#/insights?schema=support-ticket');
  await page.waitForSelector('.insights .charts');
  await page.waitForSelector('.uplot canvas');
  const figs = await page.$$eval('.insights figure figcaption', (f) => f.map((x) => x.textContent));
  check(figs.length >= 10, `insights shows its charts (${figs.length})`);
  check(await page.$$eval('.insights .bars li', (l) => l.length > 5), 'the charts have bars');
  const text = await page.$eval('.insights', (e) => e.innerText);
  check(/average \d+\.\d\d iterations/.test(text) && text.includes('p50') && text.includes('need rate'), 'iterations average, latency percentiles and need rate are shown');
  await axeCheck('insights');
  await shot('insights');

  // --- Keyboard: the navigation works without a mouse ----------------------------------------
  await page.focus('nav a[data-page="registry"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('table.cascade');
  check(page.url().endsWith('#/registry'), 'a page is reached from the navigation by keyboard');

  // --- Another tenant's key sees nothing of acme's -------------------------------------------
  await page.evaluate(() => sessionStorage.clear());
  await go(page, `#key=${KEY_OTHER}&/insights`);
  await waitText('tenant other');
  await waitText('No call has been made');
  check(true, "another tenant's insights are empty");

  check(!bodies.some((b) => b.includes(SECRET) || b.includes('CONSOLE_TEST_PROVIDER_KEY')), 'no provider key or key variable reached the browser');
  for (const p of problems) console.log(`# ${p}`);
  check(problems.length === 0, `no console error, page error or unexpected failed request (${problems.length})`);
}

// A page of the console in the same document (the router reads the address's fragment).
async function go(page, hash) {
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
}

// The label's control.
async function labelled(page, label) {
  const id = await page.evaluate((l) => {
    const el = [...document.querySelectorAll('label')].find((x) => x.textContent.trim() === l);
    return el ? el.getAttribute('for') : null;
  }, label);
  if (!id) throw new Error(`no field labelled ${label}`);
  return `#${id}`;
}

async function setField(page, label, value) {
  await setTextarea(page, await labelled(page, label), value);
}

// Sets a control's value as typing would (an input event follows).
async function setTextarea(page, sel, value) {
  await page.$eval(
    sel,
    (el, v) => {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
}

async function clickButton(page, text) {
  await page.evaluate((t) => {
    const b = [...document.querySelectorAll('button')].find((x) => x.textContent === t);
    if (!b) throw new Error(`no button ${t}`);
    b.click();
  }, text);
}

// Each field's highlighted text equals the prompt at its code point offsets (and the quote
// itself when it matched exactly).
async function checkSpans(page, prompt, what) {
  const fields = await page.$$eval('mark.span', (marks) => {
    const byPtr = {};
    for (const m of marks) for (const p of JSON.parse(m.dataset.ptrs)) (byPtr[p] = byPtr[p] || []).push(m.textContent);
    return byPtr;
  });
  const meta = await page.$$eval('.field-button[data-quote]', (bs) =>
    bs.map((b) => ({ pointer: b.dataset.pointer, quote: b.dataset.quote, match: b.dataset.match, start: Number(b.dataset.cpStart), end: Number(b.dataset.cpEnd) })),
  );
  const cps = Array.from(prompt);
  let ok = meta.length > 0;
  for (const f of meta) {
    const expected = cps.slice(f.start, f.end).join('');
    const shown = (fields[f.pointer] || []).join('');
    if (shown !== expected || (f.match === 'exact' && shown !== f.quote)) {
      ok = false;
      console.log(`# ${what}: ${f.pointer} shows ${JSON.stringify(shown)}, the prompt has ${JSON.stringify(expected)}, quoted ${JSON.stringify(f.quote)}`);
    }
  }
  check(ok, `${what}: each highlighted span is the prompt's text at its offsets, and the quote when exact (${meta.length} fields)`);
}

main()
  .catch((e) => {
    failures++;
    console.log(`not ok - ${e.stack || e}`);
  })
  .finally(() => {
    for (const c of children) c.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
    console.log(`${passes} passed, ${failures} failed`);
    process.exit(failures ? 1 : 0);
  });
