// The console's shell: the key prompt, the page router (#/playground, #/evidence, #/registry,
// #/insights) and the header. Pages are modules with render(main, params).
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { h, fill, field, notice } from './dom.js';
import { getKey, setKey, info, forgetInfo, ApiError } from './api.js';
import * as playground from './pages/playground.js';
import * as evidence from './pages/evidence.js';
import * as registry from './pages/registry.js';
import * as insights from './pages/insights.js';

const pages = { playground, evidence, registry, insights };

function takeKeyFromFragment() {
  // `make console` opens #key=...: the fragment never reaches the server; the key moves to
  // sessionStorage and leaves the address bar.
  const m = /^#key=([^&]+)(?:&(.*))?$/.exec(location.hash);
  if (!m) return;
  setKey(decodeURIComponent(m[1]));
  forgetInfo();
  history.replaceState(null, '', `${location.pathname}${location.search}#${m[2] || '/playground'}`);
}

function route() {
  const raw = location.hash.replace(/^#\/?/, '');
  const [name, query] = raw.split('?');
  return { name: pages[name] ? name : 'playground', params: new URLSearchParams(query || '') };
}

function renderLogin(main, problem) {
  const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false', required: true });
  const form = h(
    'form',
    { class: 'card login' },
    h('h1', {}, 'Sign in with an API key'),
    h('p', {}, 'The console uses the API keys of this server ([[server.keys]]). Each key sees only its own tenant. ' +
      'The key stays in this browser tab.'),
    problem && notice('error', problem),
    field('API key', input),
    h('button', { type: 'submit' }, 'Sign in'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setKey(input.value.trim());
    forgetInfo();
    render();
  });
  fill(main, form);
  input.focus();
}

async function render() {
  const main = document.getElementById('main');
  const who = document.getElementById('who');
  const { name, params } = route();
  for (const a of document.querySelectorAll('nav a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (!getKey()) {
    fill(who);
    return renderLogin(main);
  }
  let me;
  try {
    me = await info();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return renderLogin(main, 'That key was not accepted.');
    fill(main, notice('error', `The server did not answer: ${e.message}`));
    return;
  }
  const out = h('button', { type: 'button', class: 'link' }, 'Sign out');
  out.addEventListener('click', () => {
    setKey('');
    forgetInfo();
    render();
  });
  fill(who, `tenant ${me.tenant} · key ${me.keyName} `, out);
  document.title = `${name} · structure console`;
  fill(main);
  try {
    await pages[name].render(main, params, me);
  } catch (e) {
    main.appendChild(notice('error', e.message));
  }
}

window.addEventListener('hashchange', () => {
  takeKeyFromFragment();
  render();
});
// The skip link moves focus to the content without touching the page's address.
document.querySelector('.skip').addEventListener('click', (e) => {
  e.preventDefault();
  document.getElementById('main').focus();
});
window.addEventListener('structure-logout', () => render());
takeKeyFromFragment();
render();
