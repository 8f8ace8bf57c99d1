#!/usr/bin/env python3
"""The console in Firefox: Debian's firefox-esr driven over WebDriver BiDi, the W3C protocol
Firefox speaks itself (Playwright drives only its own Firefox build, and Debian has no
geckodriver), against a running `logbook serve` over demo data. Read-only: run it before the
Chromium test, which writes.

    console_firefox_test.py --base http://127.0.0.1:PORT --admin ADMIN_TOKEN --code SIGN_IN_CODE --screenshots DIR

Checks: the signed link signs in and leaves the address bar; every page loads with no console
error (a CSP violation is one) and no stray `null` or `[object …]` text; the overview's head and
events by type and the read models' positions equal the API's; Tab reaches every control of every
page. Saves a screenshot of each page (firefox-*.png) and prints measurements as one JSON line.
"""
import argparse
import base64
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from websockets.sync.client import connect

PAGES = ['overview', 'read-models', 'log', 'users', 'caches', 'webhooks']


def api(base, token, path):
    request = urllib.request.Request(base + path, headers={'Authorization': f'Bearer {token}'})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


class Firefox:
    """A headless Firefox and one WebDriver BiDi session on its first tab."""

    def __init__(self, executable):
        self.profile = tempfile.mkdtemp(prefix='logbook-firefox-')
        self.process = subprocess.Popen(
            [executable, '--headless', '--no-remote', '--profile', self.profile, '--remote-debugging-port=0', '--width=1280', '--height=900'],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=dict(os.environ, MOZ_CRASHREPORTER_DISABLE='1'))
        # Firefox's standard error is read on a thread for as long as it runs (a full pipe would
        # block it); its lines reach the queue, where the BiDi address is waited for.
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in self.process.stderr], daemon=True).start()
        url = None
        deadline = time.time() + 60
        while url is None and time.time() < deadline:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                break
            found = re.search(r'WebDriver BiDi listening on (ws://\S+)', line)
            url = found.group(1) if found else None
        if url is None:
            self.process.kill()
            raise RuntimeError('Firefox did not open its WebDriver BiDi port within 60 s')
        self.socket = connect(url + '/session', max_size=None, open_timeout=30)
        self.next_id = 0
        self.logs = []
        self.version = self.command('session.new', {'capabilities': {'alwaysMatch': {'acceptInsecureCerts': False}}})['capabilities']['browserVersion']
        self.command('session.subscribe', {'events': ['log.entryAdded']})
        self.context = self.command('browsingContext.getTree', {})['contexts'][0]['context']

    def command(self, method, params, timeout=60):
        self.next_id += 1
        mine = self.next_id
        self.socket.send(json.dumps({'id': mine, 'method': method, 'params': params}))
        deadline = time.time() + timeout
        while True:
            message = json.loads(self.socket.recv(timeout=max(0.1, deadline - time.time())))
            if message.get('method') == 'log.entryAdded':
                self.logs.append(message['params'])
            if message.get('id') == mine:
                if message.get('type') == 'error':
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message['result']

    def evaluate(self, expression):
        """The value of `expression` (JSON-serialisable, computed in the page)."""
        result = self.command('script.evaluate', {
            'expression': f'JSON.stringify({expression})', 'target': {'context': self.context}, 'awaitPromise': False})
        if result.get('type') == 'exception':
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return json.loads(result['result'].get('value', 'null'))

    def navigate(self, url):
        self.command('browsingContext.navigate', {'context': self.context, 'url': url, 'wait': 'complete'})

    def wait_for(self, expression, seconds, what):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.evaluate(expression):
                return
            time.sleep(0.1)
        raise AssertionError(f'timed out after {seconds} s: {what}')

    def press_tab(self):
        self.command('input.performActions', {'context': self.context, 'actions': [
            {'type': 'key', 'id': 'keyboard', 'actions': [{'type': 'keyDown', 'value': '\ue004'}, {'type': 'keyUp', 'value': '\ue004'}]}]})

    def screenshot(self, path):
        data = self.command('browsingContext.captureScreenshot', {'context': self.context, 'origin': 'document'})['data']
        with open(path, 'wb') as file:
            file.write(base64.b64decode(data))

    def errors(self):
        return [f"{entry.get('type')}: {entry.get('text')}" for entry in self.logs if entry.get('level') == 'error']

    def close(self):
        try:
            self.command('session.end', {}, timeout=10)
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--base', required=True)
    parser.add_argument('--admin', required=True)
    parser.add_argument('--code', required=True, help='a one-time console sign-in code (logbook console-url)')
    parser.add_argument('--screenshots', required=True)
    parser.add_argument('--firefox', default=os.environ.get('FIREFOX', '/usr/bin/firefox-esr'))
    args = parser.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    base, admin = args.base, args.admin
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print(f'FAIL (firefox): {message}', file=sys.stderr)

    firefox = Firefox(args.firefox)
    measured = {'firefox': firefox.version}
    try:
        started = time.time()
        firefox.navigate(f'{base}/console/#code={args.code}')
        firefox.wait_for("document.querySelector('main[data-loaded=\"overview\"]') !== null", 30, 'the overview to load')
        measured['overview_loaded_ms'] = round((time.time() - started) * 1000)
        check('code=' not in firefox.evaluate('location.href'), 'the sign-in code stays in the address bar')
        # The page follows the overview live (a sample a second, events by type counted a chunk
        # at a time): compare it with the API's answer until both show the same sample.
        deadline, same = time.time() + 15, False
        while not same and time.time() < deadline:
            expected = api(base, admin, '/admin/overview')
            head = int(firefox.evaluate("document.querySelector('[data-field=head]').textContent").replace(',', ''))
            rows = firefox.evaluate("[...document.querySelectorAll('#events-by-type tbody tr')].map(r => [r.cells[0].textContent, r.cells[1].textContent])")
            same = head == expected['head'] and [(t, int(c.replace(',', ''))) for t, c in rows] == [(e['type'], e['count']) for e in expected['eventsByType']]
            time.sleep(0.3)
        check(same, f"overview: head or events by type differ from the API's ({head} against {expected['head']})")
        controls = {}
        for name in PAGES:
            if name != 'overview':
                firefox.evaluate(f"(location.hash = '#/{name}', 0)")
                firefox.wait_for(f"document.querySelector('main[data-loaded=\"{name}\"]') !== null", 30, f'{name} to load')
            if name == 'read-models':
                for status in api(base, admin, '/admin/projections'):
                    shown = firefox.evaluate(f"(document.querySelector('[data-field=\"position-{status['projection']}\"]') || {{}}).textContent || null")
                    check(shown is not None and int(shown.replace(',', '')) == status['position'], f"read models: {status['projection']} position differs")
            text = firefox.evaluate("document.querySelector('main').innerText")
            stray = [line.strip() for line in text.split('\n') if '[object ' in line or line.strip() in ('null', 'undefined', 'NaN')]
            check(not stray, f'{name}: stray text {stray[:3]}')
            # Tab from the top until every visible control has had focus.
            visible = firefox.evaluate(
                "[...document.querySelectorAll('a[href], button:not([disabled]), input, select, textarea')]"
                ".filter(e => e.offsetParent !== null && !e.closest('[hidden]')).map(e => e.outerHTML.slice(0, 120))")
            # Firefox resumes Tab from where the last focus was (a blur keeps that point), so the
            # walk starts from a focus target put before everything else, taken out after.
            firefox.evaluate(
                "(() => { const start = document.createElement('span'); start.id = 'tab-walk-start'; start.tabIndex = -1;"
                " document.body.prepend(start); start.focus(); window.scrollTo(0, 0); return 0; })()")
            reached = set()
            for _ in range(len(visible) * 2 + 10):
                firefox.press_tab()
                reached.add(firefox.evaluate("document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ''"))
            firefox.evaluate("(document.getElementById('tab-walk-start')?.remove(), 0)")
            missing = [control for control in visible if control not in reached]
            check(not missing, f'{name}: Tab never reached {missing[:5]}')
            controls[name] = len(visible)
            firefox.screenshot(f'{args.screenshots}/firefox-{name}.png')
        measured['controls'] = controls
        errors = firefox.errors()
        check(not errors, f'console errors: {errors[:5]}')
    finally:
        firefox.close()
    print(json.dumps(measured))
    if failures:
        print(f'{len(failures)} failures: {failures}', file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    main()
