// Read models: code version, checkpoint, lag in events and seconds, digest and last rebuild of
// each; rebuild (in place or beside the live one), verify and backup jobs with progress bars,
// rate and time left, and cancel; stall detection from the overview's sampler.
import { h, count, fixed, seconds, table, fill } from './view.js';

/** How far a job has come, from 0 to 1, and its events (or bytes) done. */
function progressOf(job) {
  if (job.state === 'succeeded') return { fraction: 1 };
  if (job.progress) {
    // Rate and time left both from positions: events folded per second is the position's pace.
    const { position, head, finished } = job.progress;
    return { fraction: finished ? 1 : head > 0 ? Math.min(1, position / head) : 0, done: position, left: Math.max(0, head - position) };
  }
  if (job.backupProgress) {
    const { bytesCopied, sourceBytes } = job.backupProgress;
    return { fraction: sourceBytes > 0 ? Math.min(1, bytesCopied / sourceBytes) : 0, done: bytesCopied, left: Math.max(0, sourceBytes - bytesCopied), bytes: true };
  }
  return { fraction: 0 };
}

export async function render({ api, main, signal, status }) {
  const notice = h('p', { class: 'status-line', role: 'status', 'aria-live': 'polite' });
  const models = h('div', { id: 'read-models' });
  const jobsBox = h('div', { id: 'jobs' });
  const rates = new Map();   // job id -> {at, done}: the rate between two polls
  let timer = null;

  async function start(path, what) {
    try {
      const job = await api.post(path);
      notice.textContent = `${what} started (job ${job.id}).`;
      status(notice.textContent);
      await refresh();
    } catch (error) {
      notice.textContent = `${what} refused: ${error.detail || error.message}`;
    }
  }

  async function cancel(job) {
    try {
      await api.delete(`/admin/jobs/${job.id}`);
      notice.textContent = `Asked job ${job.id} to stop.`;
    } catch (error) {
      notice.textContent = `Cancel refused: ${error.detail || error.message}`;
    }
    await refresh();
  }

  function jobRow(job) {
    const progress = progressOf(job);
    const now = Date.now() / 1000;
    let rate = '', left = '';
    if (job.state === 'running' && progress.done !== undefined) {
      const before = rates.get(job.id);
      if (before && now > before.at && progress.done >= before.done) {
        const perSecond = (progress.done - before.done) / (now - before.at);
        rate = `${fixed(perSecond, 0)} ${progress.bytes ? 'B' : 'events'}/s`;
        if (perSecond > 0 && progress.left !== undefined) left = seconds(progress.left / perSecond);
      }
      rates.set(job.id, { at: now, done: progress.done });
    }
    const percent = Math.round(progress.fraction * 100);
    return [
      h('span', { class: 'mono' }, job.id.slice(0, 8)), job.kind, job.projections.join(', '),
      h('span', { class: job.state === 'failed' ? 'error' : job.state === 'succeeded' ? 'good' : undefined, 'data-state': job.state }, job.state),
      h('progress', { max: 100, value: percent, 'aria-label': `${job.kind} ${job.id.slice(0, 8)} progress`, 'data-job': job.id }, `${percent}%`),
      `${percent}%`, rate, left, job.error ? h('span', { class: 'error' }, job.error) : '',
      job.state === 'running' ? h('button', { type: 'button', onclick: () => cancel(job), 'aria-label': `Cancel job ${job.id.slice(0, 8)}` }, 'Cancel') : '',
    ];
  }

  async function refresh() {
    const [projections, jobs, overview] = await Promise.all([api.get('/admin/projections'), api.get('/admin/jobs'), api.get('/admin/overview')]);
    const stall = new Map(overview.readModels.map((model) => [model.projection, model]));
    const digests = new Map();
    const rebuilt = new Map();
    for (const job of jobs.slice().reverse()) {     // oldest first, so the newest wins
      for (const digest of job.digests || []) digests.set(digest.projection, digest.sha256);
      for (const result of job.verification || []) digests.set(result.projection, result.live);
      if ((job.kind === 'rebuild' || job.kind === 'upgrade') && job.state === 'succeeded') {
        for (const name of job.projections) rebuilt.set(name, job.finishedAt);
      }
    }
    fill(models, table('Every read model on this server', [
      ['Read model'], ['Code version', true], ['Position', true], ['Lag (events)', true], ['Lag (s)', true], ['State'], ['Digest'], ['Last rebuild'], ['Actions'],
    ], projections.map((p) => {
      const sampled = stall.get(p.projection);
      const state = p.rebuilding ? 'rebuilding'
        : p.upgrade ? `upgrading to v${p.upgrade.codeVersion} (${count(p.upgrade.lag)} behind${p.upgrade.running ? '' : ', cut off'})`
        : sampled && sampled.stalled ? `stalled ${seconds(sampled.stalledSeconds)}` : 'live';
      return [
        h('span', { 'data-projection': p.projection }, p.projection), count(p.codeVersion),
        h('span', { 'data-field': `position-${p.projection}` }, count(p.position)), count(p.lag), fixed(p.lagSeconds),
        h('span', { class: state.startsWith('stalled') ? 'warn' : undefined }, state),
        h('span', { class: 'mono', title: digests.get(p.projection) || '' }, digests.has(p.projection) ? digests.get(p.projection).slice(0, 16) + '…' : '—'),
        (rebuilt.get(p.projection) || '—').replace(/\.\d+Z$/, 'Z'),
        h('div', { class: 'actions' },
          h('button', { type: 'button', onclick: () => start(`/admin/rebuild?wait=false&projections=${p.projection}`, `Rebuild of ${p.projection}`), 'aria-label': `Rebuild ${p.projection} in place` }, 'Rebuild'),
          h('button', { type: 'button', onclick: () => start(`/admin/rebuild?wait=false&mode=background&projections=${p.projection}`, `Upgrade of ${p.projection}`), 'aria-label': `Rebuild ${p.projection} beside the live one` }, 'Upgrade')),
      ];
    }), { id: 'read-model-table' }));
    fill(jobsBox, table('Jobs, newest first', [
      ['Job'], ['Kind'], ['Read models'], ['State'], ['Progress'], ['Done', true], ['Rate', true], ['Time left', true], ['Error'], ['Actions'],
    ], jobs.map(jobRow), { id: 'job-table' }));
    clearTimeout(timer);
    if (!signal.aborted) timer = setTimeout(() => refresh().catch((error) => status(error.message)), jobs.some((job) => job.state === 'running') ? 500 : 3000);
  }

  signal.addEventListener('abort', () => clearTimeout(timer));
  main.append(
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'rebuild-all', onclick: () => start('/admin/rebuild?wait=false', 'Rebuild of every read model') }, 'Rebuild all'),
      h('button', { type: 'button', id: 'upgrade-all', onclick: () => start('/admin/rebuild?wait=false&mode=background', 'Upgrade of every read model') }, 'Upgrade all without downtime'),
      h('button', { type: 'button', id: 'verify', onclick: () => start('/admin/verify?wait=false', 'Verification') }, 'Verify'),
      h('button', { type: 'button', id: 'backup', onclick: () => start('/admin/backup?wait=false', 'Backup') }, 'Back up')),
    notice, models, h('h3', {}, 'Jobs'), jobsBox);
  await refresh();
}
