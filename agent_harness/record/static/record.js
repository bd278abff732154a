// uigym recorder: the person's input on the picture of the screen becomes uigym actions.
// Clicks, double clicks (two clicks in 350 ms), right/middle clicks, drags (moved 5 px or more while
// pressed), wheel scrolls (gathered into one scroll until the wheel rests 250 ms), typed text (one
// `type` action per run, sent after 800 ms without typing or before any other input) and key presses
// (named keys and chords) are sent to the env one at a time, in order; each answer brings the new screen.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const img = $('screen'), overlay = $('overlay'), answer = $('answer');
  const DBL_MS = 350, DRAG_PX = 5, WHEEL_MS = 250, TYPE_IDLE_MS = 800, PATH_STEP_PX = 16, PATH_MAX = 40;
  const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'CapsLock', 'AltGraph', 'Fn', 'FnLock', 'OS',
    'Hyper', 'Super', 'NumLock', 'ScrollLock', 'Dead', 'Unidentified', 'Process']);
  const RENAME = {Esc: 'Escape', Spacebar: ' ', Left: 'ArrowLeft', Right: 'ArrowRight', Up: 'ArrowUp', Down: 'ArrowDown',
    Del: 'Delete'};
  const NAMED = /^(Enter|Tab|Backspace|Delete|Escape|Insert|Home|End|PageUp|PageDown|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|F([1-9]|1[0-2]))$/;

  let state = null;          // the recorder's state (GET /api/state)
  let version = -1;          // the screen on display
  let shownAt = performance.now();  // when it was displayed (for think time)
  let inflight = 0;          // requests on their way
  let chain = Promise.resolve();    // requests go one after another
  let typed = '', typedAt = 0, typeTimer = null;  // a run of typed text
  let pending = null;        // a left click that may become a double click
  let down = null;           // a mouse button held on the picture
  let wheel = null;          // wheel movement gathered into one scroll

  const recording = () => !!state && state.status === 'recording';

  function setIdle() {
    const idle = inflight === 0 && !typed && !pending && !wheel && !down;
    document.body.dataset.idle = idle ? '1' : '0';
    $('busy').textContent = inflight ? 'working…' : (typed || pending || wheel ? 'gathering input…' : '');
  }

  function showError(msg) {
    const box = $('error');
    box.textContent = msg || '';
    box.hidden = !msg;
  }

  function point(e) {
    const r = img.getBoundingClientRect();
    const w = img.naturalWidth || r.width, h = img.naturalHeight || r.height;
    const x = Math.floor((e.clientX - r.left) * w / r.width), y = Math.floor((e.clientY - r.top) * h / r.height);
    return [Math.max(0, Math.min(w - 1, x)), Math.max(0, Math.min(h - 1, y))];
  }

  async function api(path, body) {
    const opts = body === undefined ? {cache: 'no-store'} :
      {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)};
    const r = await fetch(path, opts);
    const data = await r.json().catch(() => ({error: `HTTP ${r.status}`}));
    if (!r.ok) {
      showError(data.error || `HTTP ${r.status}`);
      if (data.state) await render(data.state);
      return null;
    }
    return data;
  }

  // Run `fn` after everything queued before it; keeps actions in the order the person made them.
  function enqueue(fn) {
    inflight++;
    setIdle();
    chain = chain.then(fn).catch((err) => showError(String(err))).finally(() => { inflight--; setIdle(); });
    return chain;
  }

  function send(action, startedAt) {
    return enqueue(async () => {
      if (!recording()) return;
      const think = Math.max(0, Math.round(startedAt - shownAt));
      const s = await api('/api/action', {action, think_ms: think});
      if (s) { showError(''); await render(s); }
    });
  }

  // ---------------------------------------------------------------- gathered input
  function flushTyping() {
    clearTimeout(typeTimer);
    typeTimer = null;
    if (typed) {
      const text = typed, at = typedAt;
      typed = '';
      showTyping();
      send({type: 'type', text}, at);
    }
    setIdle();
  }

  function flushClick() {
    if (!pending) return;
    clearTimeout(pending.timer);
    const p = pending;
    pending = null;
    clearMarks();
    send({type: 'click', x: p.x, y: p.y, button: 'left'}, p.at);
  }

  function flushWheel() {
    if (!wheel) return;
    clearTimeout(wheel.timer);
    const w = wheel;
    wheel = null;
    const dx = Math.round(w.dx), dy = Math.round(w.dy);
    if (dx || dy) send({type: 'scroll', x: w.x, y: w.y, dx, dy}, w.at);
    setIdle();
  }

  function flushAll() { flushWheel(); flushClick(); flushTyping(); }

  function discardAll() {
    clearTimeout(typeTimer); typed = ''; showTyping();
    if (pending) clearTimeout(pending.timer); pending = null;
    if (wheel) clearTimeout(wheel.timer); wheel = null;
    down = null; clearMarks(); setIdle();
  }

  function showTyping() {
    const box = $('typing');
    box.hidden = !typed;
    box.textContent = typed ? `typing: ${typed}▌` : '';
  }

  // ---------------------------------------------------------------- marks on the picture
  const SVG = 'http://www.w3.org/2000/svg';
  function clearMarks() { overlay.replaceChildren(); }
  function mark(x, y) {
    const c = document.createElementNS(SVG, 'circle');
    c.setAttribute('cx', x); c.setAttribute('cy', y); c.setAttribute('r', 7);
    c.setAttribute('fill', 'rgba(9,105,218,.25)'); c.setAttribute('stroke', '#0969da'); c.setAttribute('stroke-width', 2);
    overlay.appendChild(c);
  }
  function drawPath(path) {
    clearMarks();
    const l = document.createElementNS(SVG, 'polyline');
    l.setAttribute('points', path.map((p) => p.join(',')).join(' '));
    l.setAttribute('fill', 'none'); l.setAttribute('stroke', '#0969da'); l.setAttribute('stroke-width', 2);
    l.setAttribute('stroke-dasharray', '4 3');
    overlay.appendChild(l);
  }
  function sizeOverlay() {
    overlay.setAttribute('viewBox', `0 0 ${img.naturalWidth || 1} ${img.naturalHeight || 1}`);
  }

  // ---------------------------------------------------------------- mouse
  img.addEventListener('dragstart', (e) => e.preventDefault());
  img.addEventListener('contextmenu', (e) => e.preventDefault());
  img.addEventListener('mousedown', (e) => {
    e.preventDefault();
    $('stage').focus({preventScroll: true});
    if (!recording()) return;
    if (inflight) { showError('Wait for the screen to update before the next click.'); return; }
    showError('');
    flushTyping();
    flushWheel();
    const [x, y] = point(e);
    down = {x, y, button: e.button, path: [[x, y]], at: performance.now(), far: false};
    setIdle();
  });
  window.addEventListener('mousemove', (e) => {
    if (!down) return;
    const [x, y] = point(e);
    const last = down.path[down.path.length - 1];
    if (Math.hypot(x - down.x, y - down.y) >= DRAG_PX) down.far = true;
    if (Math.hypot(x - last[0], y - last[1]) >= PATH_STEP_PX && down.path.length < PATH_MAX) down.path.push([x, y]);
    if (down.far) drawPath(down.path.concat([[x, y]]));
  });
  window.addEventListener('mouseup', (e) => {
    if (!down) return;
    const d = down;
    down = null;
    const [x, y] = point(e);
    if (d.far || Math.hypot(x - d.x, y - d.y) >= DRAG_PX) {  // a drag
      flushClick();
      const last = d.path[d.path.length - 1];
      if (last[0] !== x || last[1] !== y) d.path.push([x, y]);
      clearMarks();
      send({type: 'drag', path: d.path}, d.at);
      return;
    }
    if (d.button !== 0) {  // right or middle click
      flushClick();
      send({type: 'click', x: d.x, y: d.y, button: d.button === 2 ? 'right' : 'middle'}, d.at);
      return;
    }
    const now = performance.now();
    if (pending && now - pending.upAt < DBL_MS && Math.hypot(d.x - pending.x, d.y - pending.y) < DRAG_PX) {
      clearTimeout(pending.timer);
      const p = pending;
      pending = null;
      clearMarks();
      send({type: 'double_click', x: p.x, y: p.y}, p.at);
      return;
    }
    flushClick();
    pending = {x: d.x, y: d.y, at: d.at, upAt: now, timer: setTimeout(() => { flushClick(); setIdle(); }, DBL_MS)};
    mark(d.x, d.y);
    setIdle();
  });

  img.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (!recording()) return;
    flushClick();
    flushTyping();
    const k = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? (img.naturalHeight || 720) : 1;
    if (!wheel) {
      const [x, y] = point(e);
      wheel = {x, y, dx: 0, dy: 0, at: performance.now(), timer: null};
    }
    wheel.dx += e.deltaX * k;
    wheel.dy += e.deltaY * k;
    clearTimeout(wheel.timer);
    wheel.timer = setTimeout(flushWheel, WHEEL_MS);
    setIdle();
  }, {passive: false});

  // ---------------------------------------------------------------- keyboard
  document.addEventListener('keydown', (e) => {
    if (e.target === answer) {
      if (e.key === 'Enter') { e.preventDefault(); finish(); }
      return;
    }
    if (!recording() || e.isComposing || MODIFIERS.has(e.key)) return;
    const key = RENAME[e.key] || e.key;
    const chord = e.ctrlKey || e.metaKey || e.altKey;
    e.preventDefault();
    if (key.length === 1 && !chord) {  // printable: part of a run of text
      flushClick();
      flushWheel();
      if (!typed) typedAt = performance.now();
      typed += key;
      showTyping();
      clearTimeout(typeTimer);
      typeTimer = setTimeout(flushTyping, TYPE_IDLE_MS);
      setIdle();
      return;
    }
    if (key.length !== 1 && !NAMED.test(key)) {
      showError(`The key ${key} is not in the agent's action space.`);
      return;
    }
    flushAll();
    const keys = [];
    if (e.ctrlKey) keys.push('Control');
    if (e.altKey) keys.push('Alt');
    if (e.shiftKey && (key.length !== 1 || chord)) keys.push('Shift');
    if (e.metaKey) keys.push('Meta');
    keys.push(key.length === 1 && chord ? key.toLowerCase() : key);
    send({type: 'keypress', keys}, performance.now());
  });

  // ---------------------------------------------------------------- buttons
  function finish() {
    if (!recording()) return;
    flushAll();
    const at = performance.now();
    enqueue(async () => {
      if (!recording()) return;
      const s = await api('/api/done', {answer: answer.value, think_ms: Math.max(0, Math.round(at - shownAt))});
      if (s) { showError(''); await render(s); }
    });
  }

  function control(path, body, before) {
    return () => {
      if (before) before();
      enqueue(async () => {
        const s = await api(path, body || {});
        if (s) { showError(''); answer.value = ''; await render(s); }
      });
    };
  }

  const buttons = {
    done: finish,
    restart: control('/api/restart', {}, discardAll),
    again: control('/api/restart', {}, discardAll),
    skip: control('/api/next', {skip: true}, discardAll),
    next: control('/api/next', {}, discardAll),
    quit: () => {
      flushAll();
      enqueue(async () => {
        await api('/api/quit', {});
        state = {status: 'stopped'};
        document.body.innerHTML = '<p style="padding:20px">The recorder has stopped. You can close this tab.</p>';
      });
    },
  };
  for (const [id, fn] of Object.entries(buttons)) {
    $(id).addEventListener('click', (e) => { e.currentTarget.blur(); fn(); });
  }

  // ---------------------------------------------------------------- render
  function loadScreen(v) {
    return new Promise((resolve) => {
      img.onload = () => { version = v; shownAt = performance.now(); sizeOverlay(); resolve(); };
      img.onerror = () => resolve();
      img.src = `/api/screen.png?v=${v}`;
    });
  }

  async function render(s) {
    state = s;
    const q = s.queue || {};
    $('annotator').textContent = `annotator: ${s.annotator}`;
    if (s.mode === 'queue') {
      $('queue').textContent = `task ${q.position} of ${q.todo} to do · ${q.done_now} done now · ` +
        `${q.done_before} of ${q.total} demonstrated before` + (q.skipped ? ` · ${q.skipped} skipped` : '');
    }
    if (s.status === 'all_done') {
      $('task-id').textContent = '';
      $('difficulty').textContent = '';
      $('goal').textContent = 'All tasks are done.';
      $('alldone').hidden = false;
      $('alldone-detail').textContent = `${q.done_now} demonstrated in this session, ${q.done_before} before, ` +
        `${q.skipped} skipped.`;
      $('outdir').textContent = s.out;
      $('result').hidden = true;
      img.hidden = true;
      for (const id of ['done', 'restart', 'skip']) $(id).disabled = true;
      return;
    }
    const t = s.task;
    $('task-id').textContent = `${t.id} · sample ${s.sample}`;
    $('difficulty').textContent = t.difficulty;
    $('goal').textContent = t.goal;
    $('step').textContent = `step ${s.step} / ${s.max_steps}`;
    $('url').textContent = s.url || '';
    if (s.last_action_error) showError(`The last action failed: ${s.last_action_error}`);
    const list = $('actions');
    list.replaceChildren(...s.actions.map((a) => {
      const li = document.createElement('li');
      li.value = a.step;
      li.textContent = a.text + (a.error ? ` — ${a.error}` : '');
      if (a.error) li.className = 'err';
      return li;
    }));
    const rec = s.status === 'recording';
    $('done').disabled = !rec;
    $('restart').disabled = !rec;
    $('skip').hidden = !(s.mode === 'queue' && rec);
    const res = $('result');
    res.hidden = rec;
    if (!rec && s.result) {
      const r = s.result;
      const v = $('verdict');
      v.className = r.passed ? 'pass' : 'fail';
      v.textContent = (r.passed ? '✓ Passed' : '✗ Not passed') + ` — reward ${r.reward}` +
        (r.truncated ? ' (out of steps)' : '');
      $('checks').replaceChildren(...r.checks.map((c) => {
        const li = document.createElement('li');
        li.className = c.passed ? 'ok' : 'fail';
        li.textContent = `${c.passed ? 'ok' : 'FAIL'} ${c.name}: ${c.detail}`;
        return li;
      }));
      $('saved').textContent = `saved: ${s.out}/${r.episode_dir} (${r.seconds}s)`;
      $('next').hidden = s.mode !== 'queue';
    }
    if (s.version !== version) await loadScreen(s.version);
  }

  api('/api/state').then((s) => s && render(s)).finally(setIdle);
})();
