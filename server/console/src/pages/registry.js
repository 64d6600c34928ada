// Registry: the cascade for the key's tenant (bundled, tenant, project; what shadows what), a
// schema and manual editor whose validator, compatibility and provider checks run as you type
// (POST /v1/schemas/{name}/check), saving through PUT /v1/schemas/{name} (which refuses a
// breaking change), and the history of stored versions.
import { h, fill, field, notice, pretty, codeBlock } from '../dom.js';
import { call, get } from '../api.js';
import { projectControl } from './playground.js';

let project = '';

const q = (extra = {}) => {
  const p = new URLSearchParams(extra);
  if (project) p.set('project', project);
  const s = p.toString();
  return s ? `?${s}` : '';
};
const enc = encodeURIComponent;

function levelOf(origin) {
  if (origin === 'registry:bundled') return 'bundled';
  if (origin.startsWith('registry:tenant:')) return 'tenant';
  return 'project';
}

function cascadeTable(schemas, onPick) {
  const cell = (s, level) => {
    const here = levelOf(s.origin) === level;
    const hidden = (s.shadows || []).some((o) => levelOf(o) === level);
    if (here) return h('td', { class: 'effective' }, `${s.version} (in effect)`);
    if (hidden) return h('td', { class: 'shadowed' }, 'shadowed');
    return h('td', { class: 'muted' }, '–');
  };
  return h(
    'table',
    { class: 'cascade' },
    h('caption', {}, 'Schemas visible to this key: the nearest level wins (project → tenant → bundled)'),
    h('thead', {}, h('tr', {}, ['Name', 'Bundled', 'Tenant', project ? `Project ${project}` : 'Project'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      schemas.map((s) =>
        h(
          'tr',
          {},
          h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', onclick: () => onPick(s.name) }, s.name)),
          cell(s, 'bundled'),
          cell(s, 'tenant'),
          project ? cell(s, 'project') : h('td', { class: 'muted' }, '–'),
        ),
      ),
    ),
  );
}

// Where the JSON text is wrong, as line:column, or null when it parses.
function parseProblem(text) {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    const m = /position (\d+)/.exec(e.message);
    if (!m) return e.message;
    const before = text.slice(0, Number(m[1]));
    const line = before.split('\n').length;
    const col = before.length - before.lastIndexOf('\n');
    return `line ${line}, column ${col}: ${e.message}`;
  }
}

function checkView(report) {
  const providers = report.providers || [];
  return [
    report.accepted
      ? notice('ok', 'Saving would be accepted.')
      : notice('error', `Saving would be refused: ${(report.problems || []).join(' ')}`),
    h(
      'ul',
      { class: 'checks' },
      h('li', {}, h('strong', {}, 'Validator: '), report.validator.ok ? 'compiles' : report.validator.errors.join('; ')),
      h('li', {}, h('strong', {}, 'Compatibility: '), report.compatibility.message),
    ),
    providers.length
      ? h(
          'table',
          { class: 'providers' },
          h('caption', {}, 'How each configured provider would be asked'),
          h('thead', {}, h('tr', {}, ['Provider', 'Profile', 'Mode', 'Why'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            providers.map((p) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, `${p.provider}/${p.model}`),
                h('td', {}, p.profile),
                h('td', {}, h('span', { class: `badge m-${p.mode}` }, p.mode)),
                h('td', {}, p.reason || (p.dropped && p.dropped.length ? `checked after generation: ${p.dropped.map((d) => `${d.path} ${d.keyword}`).join(', ')}` : 'the provider enforces the schema as lowered')),
              ),
            ),
          ),
        )
      : null,
  ];
}

async function editor(panel, name, me, reload, saved) {
  const entry = await get(`v1/schemas/${enc(name)}${q()}`).catch(() => null);
  const schemaText = h('textarea', { rows: 18, class: 'mono', spellcheck: 'false', value: entry ? pretty(entry.schema) : '{\n  "type": "object"\n}' });
  const manual = h('textarea', { rows: 6, spellcheck: 'false', value: entry ? entry.manual : '' });
  const version = h('input', { type: 'text', value: entry ? entry.version : '1.0', size: 6, spellcheck: 'false' });
  const live = h('div', { class: 'live', 'aria-live': 'polite' });
  const saveOut = h('div', { 'aria-live': 'polite' }, saved ? notice('ok', saved) : null);
  const target = project ? `project ${project}` : `tenant ${me.tenant}`;
  let timer = null;
  let seq = 0;
  const body = () => ({ schema: JSON.parse(schemaText.value), version: version.value.trim(), manual: manual.value });
  const check = async () => {
    const problem = parseProblem(schemaText.value);
    if (problem) return fill(live, notice('error', `Schema JSON: ${problem}`));
    const mine = ++seq;
    try {
      const r = await call('POST', `v1/schemas/${enc(name)}/check${q()}`, body(), [200]);
      if (mine === seq) fill(live, checkView(r.body));
    } catch (e) {
      if (mine === seq) fill(live, notice('error', e.message));
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  };
  for (const el of [schemaText, manual, version]) el.addEventListener('input', later);
  const save = h('button', { type: 'button' }, `Save to ${target}`);
  save.addEventListener('click', async () => {
    const problem = parseProblem(schemaText.value);
    if (problem) return fill(saveOut, notice('error', `Schema JSON: ${problem}`));
    try {
      const r = await call('PUT', `v1/schemas/${enc(name)}${q()}`, body());
      await reload(name, `Saved ${r.body.name} ${r.body.version} at ${r.body.origin}.`);
    } catch (e) {
      fill(saveOut, notice('error', `Not saved: ${e.message}`));
    }
  });
  const history = await get(`v1/schemas/${enc(name)}/versions${q()}`).catch(() => ({ versions: [] }));
  const old = h('div', { class: 'old-version' });
  fill(
    panel,
    h('h2', {}, name, entry ? h('span', { class: 'muted' }, ` ${entry.version} · ${entry.origin}`) : ' (new)'),
    h('div', { class: 'row' }, field('Version (MAJOR.MINOR)', version, 'a minor step must be compatible')),
    field('Schema', schemaText),
    field('Manual (markdown, added to the system prompt)', manual),
    live,
    save,
    saveOut,
    h('h3', {}, 'History'),
    history.versions.length
      ? h(
          'ol',
          { class: 'history' },
          history.versions.map((v) =>
            h(
              'li',
              {},
              h('button', {
                type: 'button',
                class: 'link',
                onclick: () => fill(old, h('h4', {}, `${v.version} · ${v.origin}`), codeBlock(pretty(v.schema), `version ${v.version}`)),
              }, `${v.version}`),
              ` ${v.origin} · ${new Date(v.updatedAtMs).toISOString()}`,
            ),
          ),
        )
      : h('p', { class: 'hint' }, 'No stored version yet.'),
    old,
  );
  check();
}

export async function render(main, params, me) {
  const control = projectControl(me, project);
  const listBox = h('div');
  const panel = h('section', { class: 'card editor', 'aria-label': 'Schema' });
  const newName = h('input', { type: 'text', placeholder: 'new-schema-name', spellcheck: 'false' });
  const reload = async (pick, saved) => {
    const list = await get(`v1/schemas${q()}`);
    fill(listBox, cascadeTable(list.schemas, (n) => editor(panel, n, me, reload)));
    if (pick) await editor(panel, pick, me, reload, saved);
  };
  control.addEventListener('change', () => {
    project = control.value.trim();
    reload();
    fill(panel);
  });
  const create = h('button', { type: 'button', class: 'secondary' }, 'New schema');
  create.addEventListener('click', () => newName.value.trim() && editor(panel, newName.value.trim(), me, reload));
  fill(
    main,
    h('h1', {}, 'Registry'),
    h('div', { class: 'card' }, h('div', { class: 'row' }, field('Project', control), field('New schema name', newName), create), listBox),
    panel,
  );
  await reload(params.get('name'));
}
