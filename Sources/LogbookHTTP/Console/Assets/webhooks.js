// Webhooks: each one's checkpoint, lag, failures and state, with pause, resume and delete, and
// its dead letters with replay and discard.
import { h, count, table, fill } from './view.js';

export async function render({ api, main, status }) {
  const box = h('div', { id: 'webhooks' });
  const notice = h('p', { role: 'status', 'aria-live': 'polite' });
  main.append(notice, box);

  async function act(what, request) {
    try {
      await request();
      notice.textContent = `${what}: done.`;
    } catch (error) {
      notice.textContent = `${what} refused: ${error.detail || error.message}`;
    }
    status(notice.textContent);
    await refresh();
  }

  async function refresh() {
    const webhooks = await api.get('/admin/webhooks');
    if (webhooks.length === 0) {
      fill(box, h('p', { class: 'muted' }, 'No webhooks. Make one with POST /admin/webhooks {url, eventTypes?, users?, secret}.'));
      return;
    }
    fill(box, 
      table('Every webhook', [['Id'], ['URL'], ['Delivered through', true], ['Lag (events)', true], ['Delivered', true], ['Failures', true], ['Dead letters', true], ['State'], ['Last error'], ['Actions']],
        webhooks.map((hook) => [
          h('span', { class: 'mono' }, hook.id), h('span', { class: 'mono' }, hook.url), count(hook.deliveredThrough), count(hook.lagEvents),
          count(hook.eventsDelivered), count(hook.failures), count(hook.deadLetters.length),
          hook.paused ? `paused${hook.pausedReason ? ` (${hook.pausedReason})` : ''}` : 'delivering', hook.lastError || '—',
          h('div', { class: 'actions' },
            hook.paused
              ? h('button', { type: 'button', onclick: () => act(`Resume ${hook.id}`, () => api.post(`/admin/webhooks/${hook.id}/resume`)), 'aria-label': `Resume webhook ${hook.id}` }, 'Resume')
              : h('button', { type: 'button', onclick: () => act(`Pause ${hook.id}`, () => api.post(`/admin/webhooks/${hook.id}/pause`)), 'aria-label': `Pause webhook ${hook.id}` }, 'Pause'),
            h('button', { type: 'button', class: 'danger', onclick: () => { if (window.confirm(`Delete webhook ${hook.id} (${hook.url}) and its dead letters?`)) act(`Delete ${hook.id}`, () => api.delete(`/admin/webhooks/${hook.id}`)); }, 'aria-label': `Delete webhook ${hook.id}` }, 'Delete')),
        ]), { id: 'webhook-table' }),
      webhooks.filter((hook) => hook.deadLetters.length > 0).map((hook) => [
        h('h3', {}, `Dead letters of ${hook.id}`),
        table(`Batches that failed every attempt, oldest first`, [['Id'], ['Positions'], ['Events', true], ['Attempts', true], ['Failed at'], ['Error'], ['Actions']],
          hook.deadLetters.map((letter) => [
            h('span', { class: 'mono' }, letter.id), `${letter.first}–${letter.last}`, count(letter.events), count(letter.attempts), letter.failedAt, letter.error,
            h('div', { class: 'actions' },
              h('button', { type: 'button', onclick: () => act(`Replay ${letter.id}`, () => api.post(`/admin/webhooks/${hook.id}/dead-letters/${letter.id}/replay`)), 'aria-label': `Replay dead letter ${letter.id}` }, 'Replay'),
              h('button', { type: 'button', class: 'danger', onclick: () => act(`Discard ${letter.id}`, () => api.delete(`/admin/webhooks/${hook.id}/dead-letters/${letter.id}`)), 'aria-label': `Discard dead letter ${letter.id}` }, 'Discard')),
          ])),
      ]));
  }

  await refresh();
}
