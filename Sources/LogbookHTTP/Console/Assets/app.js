// The console's shell: sign-in (a pasted token, or the one-time link `logbook console-url` prints,
// exchanged for a short-lived token; either kept in this tab's session storage only), the hash
// router over the pages, and the status line.
import { Api, ApiError } from './api.js';
import { h, fill } from './view.js';
import * as overview from './overview.js';
import * as readModels from './readmodels.js';
import * as log from './log.js';
import * as users from './users.js';
import * as caches from './caches.js';
import * as webhooks from './webhooks.js';

const pages = {
  overview: ['Overview', overview],
  'read-models': ['Read models', readModels],
  log: ['Log', log],
  users: ['Users', users],
  caches: ['Caches', caches],
  webhooks: ['Webhooks', webhooks],
};

// The API's absolute address on this origin: the prefix the routes are mounted under (everything
// before /console/), repeated slashes collapsed, so no path can make it another host.
const base = location.origin + location.pathname.replace(/\/{2,}/g, '/').replace(/\/console\/.*$/, '');
const storageKey = 'logbook-console-token';
let current = null;

function status(text) {
  document.getElementById('status').textContent = text;
}

function signInForm(message) {
  const main = document.getElementById('page');
  document.getElementById('nav').hidden = true;
  document.getElementById('sign-out').hidden = true;
  const form = h('form', { id: 'sign-in-form' },
    h('label', { for: 'token' }, 'Administrator token'),
    h('textarea', { id: 'token', name: 'token', rows: 3, required: true, autocomplete: 'off', spellcheck: 'false' }),
    h('button', { type: 'submit' }, 'Sign in'),
    h('p', { id: 'sign-in-error', class: 'error', role: 'alert' }, message || ''));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    signIn(form.elements.token.value.trim());
  });
  fill(main, h('section', { id: 'sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h2', { id: 'sign-in-title' }, 'Sign in'),
    h('p', {}, 'Paste an administrator\'s bearer token, or open the one-time link ', h('code', {}, 'logbook console-url'),
      ' prints. The token stays in this tab only.'),
    form));
  document.title = 'Sign in · Logbook console';
}

async function signIn(token) {
  if (!token) return signInForm('Paste a token first.');
  const api = new Api(base, token);
  try {
    await api.get('/admin/projections');
  } catch (error) {
    sessionStorage.removeItem(storageKey);
    const why = error instanceof ApiError
      ? (error.status === 401 ? `The token was refused: ${error.detail}` : error.status === 403 ? 'This token is not an administrator\'s.' : error.message)
      : `The server did not answer: ${error.message}`;
    return signInForm(why);
  }
  sessionStorage.setItem(storageKey, token);
  document.getElementById('nav').hidden = false;
  document.getElementById('sign-out').hidden = false;
  if (!location.hash.startsWith('#/')) location.replace('#/overview');
  else show();
}

/** The token was refused (expired): back to the sign-in form. */
function expired() {
  sessionStorage.removeItem(storageKey);
  if (current) current.abort();
  signInForm('The token has expired or was refused; sign in again.');
}

async function show() {
  const main = document.getElementById('page');
  delete main.dataset.loaded;
  const token = sessionStorage.getItem(storageKey);
  if (!token) return signInForm();
  const [asked, ...rest] = location.hash.replace(/^#\//, '').split('/');
  const name = Object.hasOwn(pages, asked) ? asked : 'overview';
  const entry = pages[name];
  if (current) current.abort();
  const controller = new AbortController();
  current = controller;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.getAttribute('href') === `#/${name}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  fill(main, h('h2', {}, entry[0]));
  document.title = `${entry[0]} · Logbook console`;
  // Requests of this page are cancelled when another page is shown, so a slow one never writes into it.
  const api = new Api(base, token, controller.signal);
  try {
    await entry[1].render({ api, main, status, expired, signal: controller.signal, args: rest.map(decodeURIComponent) });
    if (controller.signal.aborted) return;
    main.dataset.loaded = name;
    main.focus();
  } catch (error) {
    if (controller.signal.aborted || error.name === 'AbortError') return;
    if (error instanceof ApiError && error.status === 401) return expired();
    main.append(h('p', { class: 'error', role: 'alert' }, `Could not load this page: ${error.message}`));
  }
}

/**
 * A link from `logbook console-url` carries a one-time code in the fragment (never sent to the
 * server): take it out of the address bar at once, exchange it for a short-lived token (the
 * code is then spent: the link opens nothing again) and sign in with that. False when the
 * address holds no link.
 */
function signInFromLink() {
  const linked = location.hash.match(/^#(code|token)=([A-Za-z0-9._-]+)$/);
  if (!linked) return false;
  history.replaceState(null, '', location.pathname);
  // Links no longer carry tokens: one in the address bar is not used (and is gone from it now).
  if (linked[1] === 'token') {
    signInForm('Sign-in links carry a one-time code now: run logbook console-url for a new one.');
    return true;
  }
  exchange(linked[2]);
  return true;
}

/** Exchanges a link's one-time code for a token (POST /console/sessions) and signs in with it. */
async function exchange(code) {
  status('Signing in…');
  let session;
  try {
    const response = await fetch(base + '/console/sessions', {
      method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ code }),
    });
    const text = await response.text();
    let answer = null;
    try { answer = JSON.parse(text); } catch { /* not JSON */ }
    if (!response.ok) {
      status('');
      return signInForm(`This sign-in link was refused: ${(answer && answer.detail) || response.statusText}`);
    }
    session = answer;
  } catch (error) {
    status('');
    return signInForm(`The server did not answer: ${error.message}`);
  }
  status('');
  signIn(session.token);
}

function start() {
  document.getElementById('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(storageKey);
    if (current) current.abort();
    history.replaceState(null, '', location.pathname);   // no hashchange: the message stays
    signInForm('Signed out.');
  });
  // The skip link moves focus to the page; it is no page of its own.
  document.querySelector('.skip').addEventListener('click', (event) => {
    event.preventDefault();
    document.getElementById('page').focus();
  });
  window.addEventListener('hashchange', () => {
    if (signInFromLink()) return;
    if (location.hash.startsWith('#/')) show();
  });
  if (signInFromLink()) return;
  const form = document.getElementById('sign-in-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    signIn(form.elements.token.value.trim());
  });
  const token = sessionStorage.getItem(storageKey);
  if (token) signIn(token);
}

start();
