// The explorer page's script (simplec --emit=html). It reads the JSON that
// simplec embedded (source, each function's graph after parsing and after
// every pass that changed it, schedules, assembly) and draws it. Graphs are
// laid out lazily (graph_layout.js): only the function and pass on screen,
// cached; only the nodes and edges near the visible part are put into the
// SVG, so a program of many hundred lines stays responsive. Nodes are named
// by serial: the same number in every pass.
'use strict';

const DATA = JSON.parse(document.getElementById('explorer-data').textContent);
const SVG_NS = 'http://www.w3.org/2000/svg';
const COLOURS = 8;

const state = {
  fn: 0, pass: DATA.passes.length - 1, diff: false,
  selected: null,     // serial of the selected node
  line: 0,            // selected source line (0: none)
  matches: [], matchAt: -1,
  zoom: 1, tx: 0, ty: 0,
};
const layouts = new Map();  // "fn:version[:previous]" -> layout
const $ = (id) => document.getElementById(id);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function svg(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}
const colourOf = (line) => 'c' + (line % COLOURS);

// ---- data access

// The version of function fn shown at pass p: the last one recorded at or before p.
function versionIndexAt(fn, p) {
  if (!DATA.functions[fn]) return -1;  // a program without functions
  const vs = DATA.functions[fn].versions;
  let at = -1;
  for (let i = 0; i < vs.length && vs[i].pass <= p; i++) at = i;
  return at;
}
function nodesAt(fn, p) {
  const vi = versionIndexAt(fn, p);
  return vi < 0 || DATA.functions[fn].versions[vi].removed ? null : DATA.functions[fn].versions[vi].nodes;
}
// Source line of every node the function ever had (for the schedule's colours).
const lineOfSerial = DATA.functions.map((f) => {
  const m = new Map();
  for (const v of f.versions) for (const n of v.nodes) m.set(n.id, n.line);
  return m;
});
// Source lines that have machine code, and assembly lines by source line.
const asmByLine = new Map();
DATA.asm.forEach(([, line], i) => {
  if (!line) return;
  if (!asmByLine.has(line)) asmByLine.set(line, []);
  asmByLine.get(line).push(i);
});

// The graph shown: the function at the pass, and in diff mode the nodes
// the pass removed (from the version before it) drawn as ghosts.
function currentLayout() {
  const fn = state.fn, vi = versionIndexAt(fn, state.pass);
  if (vi < 0) return null;
  const versions = DATA.functions[fn].versions;
  if (versions[vi].removed) return null;
  const prevVi = state.diff && state.pass > 0 ? versionIndexAt(fn, state.pass - 1) : -1;
  const prev = prevVi >= 0 && prevVi !== vi && !versions[prevVi].removed ? versions[prevVi].nodes : null;
  const key = fn + ':' + vi + (prev ? ':' + prevVi : '');
  if (layouts.has(key)) return layouts.get(key);
  let nodes = versions[vi].nodes;
  const diff = new Map();
  if (prev) {
    const before = new Map(prev.map((nd) => [nd.id, nd]));
    const now = new Set(nodes.map((nd) => nd.id));
    for (const nd of nodes) {
      const old = before.get(nd.id);
      if (!old) diff.set(nd.id, 'added');
      else if (old.type !== nd.type || old.label !== nd.label) diff.set(nd.id, 'retyped');
    }
    const ghosts = prev.filter((nd) => !now.has(nd.id));
    ghosts.forEach((nd) => diff.set(nd.id, 'removed'));
    nodes = nodes.concat(ghosts);
  }
  const layout = layoutGraph(nodes);
  layout.diff = diff;
  layout.unchanged = state.diff && !prev && state.pass > 0;
  layouts.set(key, layout);
  return layout;
}

// ---- drawing the graph

const viewport = $('viewport'), graphSvg = $('graph');
let drawQueued = false;

function queueDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(() => { drawQueued = false; drawGraph(); });
}

function applyTransform() {
  viewport.setAttribute('transform', `translate(${state.tx},${state.ty}) scale(${state.zoom})`);
}

function drawGraph() {
  const layout = currentLayout();
  viewport.textContent = '';
  applyTransform();
  const msg = $('graph-message');
  if (!layout) {
    const f = DATA.functions[state.fn];
    const vi = versionIndexAt(state.fn, state.pass);
    msg.textContent = !f ? 'this program has no function with a body' : vi < 0 ? `${f.name} has no body yet at this pass`
      : `${f.name} was removed by pass '${DATA.passes[f.versions[vi].pass]}' (inlined everywhere or unused)`;
    msg.hidden = false;
    $('graph-stats').textContent = '';
    return;
  }
  msg.hidden = !layout.unchanged;
  if (layout.unchanged) msg.textContent = `'${DATA.passes[state.pass]}' did not change ${DATA.functions[state.fn].name}`;
  const shown = layout.boxes.filter((b) => !layout.diff || layout.diff.get(b.node.id) !== 'removed').length;
  $('graph-stats').textContent = `${DATA.functions[state.fn].name} after ${DATA.passes[state.pass]}: ${shown} nodes`;

  // What is on screen, with a margin: only that goes into the SVG.
  const rect = graphSvg.getBoundingClientRect();
  const margin = 200;
  const x0 = (-state.tx - margin) / state.zoom, y0 = (-state.ty - margin) / state.zoom;
  const x1 = (rect.width - state.tx + margin) / state.zoom, y1 = (rect.height - state.ty + margin) / state.zoom;
  const visible = (b) => b.x + b.w >= x0 && b.x <= x1 && b.y + b.h >= y0 && b.y <= y1;

  const sel = state.selected !== null ? layout.byId.get(state.selected) : null;
  const inputs = new Set(), uses = new Set();
  if (sel) {
    const i = layout.boxes.indexOf(sel);
    for (const k of layout.ins[i]) inputs.add(layout.edges[k].from);
    for (const k of layout.outs[i]) uses.add(layout.edges[k].to);
  }
  const matches = new Set(state.matches);
  const edgeLayer = svg('g', {}), nodeLayer = svg('g', {});
  viewport.append(edgeLayer, nodeLayer);

  for (const e of layout.edges) {
    const a = layout.boxes[e.from], b = layout.boxes[e.to];
    if (!visible(a) && !visible(b)) continue;
    const nIn = b.node.in.length;
    const ex = b.x + (b.w * (e.slot + 1)) / (nIn + 1), ey = b.y;
    const sx = a.cx, sy = a.y + a.h;
    let d;
    if (e.back || sy > ey) {
      const side = Math.max(a.x + a.w, b.x + b.w) + 30;
      d = `M${sx},${sy} C${sx},${sy + 40} ${side},${sy + 40} ${side},${(sy + ey) / 2} S${ex},${ey - 40} ${ex},${ey}`;
    } else {
      const mid = (ey - sy) / 2;
      d = `M${sx},${sy} C${sx},${sy + mid} ${ex},${ey - mid} ${ex},${ey}`;
    }
    let cls = 'edge ' + e.kind + (e.back ? ' back' : '');
    const diffA = layout.diff.get(a.node.id), diffB = layout.diff.get(b.node.id);
    if (diffA === 'removed' || diffB === 'removed') cls += ' ghost';
    if (sel && (a === sel || b === sel)) cls += ' hot';
    else if (sel) cls += ' dim';
    edgeLayer.append(svg('path', { d, class: cls, 'marker-end': `url(#arrow-${e.kind})` }));
  }

  layout.boxes.forEach((b, i) => {
    if (!visible(b)) return;
    const nd = b.node;
    let cls = 'node';
    if (nd.cfg) cls += ' cfg';
    else if (nd.op === 'Phi') cls += ' phi';
    else if (nd.op === 'Con') cls += ' con';
    if (nd.type === 'mem') cls += ' memval';
    const change = layout.diff.get(nd.id);
    if (change) cls += ' ' + change;
    if (sel === b) cls += ' selected';
    else if (inputs.has(i)) cls += ' input';
    else if (uses.has(i)) cls += ' use';
    else if (sel) cls += ' dim';
    if (matches.has(nd.id)) cls += ' match';
    if (state.line && nd.line === state.line) cls += ' line-match';
    const g = svg('g', { class: cls, transform: `translate(${b.x},${b.y})`, 'data-id': nd.id });
    g.append(svg('rect', { width: b.w, height: b.h, rx: nd.cfg ? 2 : 9 }));
    b.text.forEach((t, k) => {
      const tx = svg('text', { x: 7, y: 14 + k * 13, class: k ? 'sub' : '' });
      tx.textContent = t;
      g.append(tx);
    });
    const title = svg('title', {});
    title.textContent = `#${nd.id} ${nd.label}${nd.type ? ' : ' + nd.type : ''}` +
      (nd.line ? `\nline ${nd.line}:${nd.col}` : '') + (nd.names.length ? '\nvariables: ' + nd.names.join(', ') : '') +
      (change ? '\n' + change + ' by this pass' : '');
    g.append(title);
    nodeLayer.append(g);
  });
}

function fitGraph() {
  const layout = currentLayout();
  const rect = graphSvg.getBoundingClientRect();
  if (!layout || !rect.width) return;
  const z = Math.min(rect.width / (layout.width + 40), rect.height / (layout.height + 40), 1.2);
  if (z >= 0.6) {
    state.zoom = z;
    state.tx = (rect.width - layout.width * z) / 2;
  } else {
    // A big graph starts readable, at its entry, rather than as a speck.
    state.zoom = 0.8;
    const entry = layout.boxes.find((b) => b.node.op === 'Fun') || layout.boxes[0];
    state.tx = rect.width / 2 - entry.cx * state.zoom;
  }
  state.ty = 20;
  queueDraw();
}

// Centres the view on a node of the current graph (if it is there).
function showNode(serial) {
  const layout = currentLayout();
  const b = layout && layout.byId.get(serial);
  if (!b) return;
  const rect = graphSvg.getBoundingClientRect();
  state.tx = rect.width / 2 - b.cx * state.zoom;
  state.ty = rect.height / 2 - (b.y + b.h / 2) * state.zoom;
}

// ---- the other panes

function buildSource() {
  const box = $('source');
  const lines = DATA.source.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  lines.forEach((text, i) => {
    const n = i + 1;
    const row = el('div', 'src-line' + (asmByLine.has(n) ? ' ' + colourOf(n) : ''));
    row.dataset.line = n;
    row.append(el('span', 'ln', String(n)), document.createTextNode(text || ' '));
    box.append(row);
  });
  box.addEventListener('click', (ev) => {
    const row = ev.target.closest('.src-line');
    if (row) selectLine(Number(row.dataset.line));
  });
}

// Hovering a source line outlines its instructions, and the other way round.
let hovered = [];
function hoverLine(line) {
  for (const row of hovered) row.classList.remove('hover-line');
  hovered = [];
  if (!line) return;
  const src = $('source').children[line - 1];
  if (src) hovered.push(src);
  for (const i of asmByLine.get(line) || []) hovered.push($('asm').children[i]);
  for (const row of hovered) row.classList.add('hover-line');
}
for (const id of ['source', 'asm']) {
  $(id).addEventListener('mouseover', (ev) => {
    const row = ev.target.closest('.src-line, .asm-line');
    hoverLine(row ? Number(row.dataset.line) : 0);
  });
  $(id).addEventListener('mouseleave', () => hoverLine(0));
}

function buildAsm() {
  const box = $('asm');
  DATA.asm.forEach(([text, line], i) => {
    const row = el('div', 'asm-line' + (line ? ' ' + colourOf(line) : ''));
    row.dataset.line = line;
    row.dataset.index = i;
    row.append(el('span', 'ln', line ? String(line) : ''), document.createTextNode(text.replace(/^\t/, '  ')));
    box.append(row);
  });
  box.addEventListener('click', (ev) => {
    const row = ev.target.closest('.asm-line');
    if (row && Number(row.dataset.line)) selectLine(Number(row.dataset.line));
  });
}

function buildSchedule() {
  const box = $('schedule');
  box.textContent = '';
  const sched = DATA.schedules.find((s) => s.function === state.fn);
  if (!sched) {
    box.append(el('div', 'sched-block', '  (no code: the function was removed)'));
    return;
  }
  const lines = lineOfSerial[state.fn];
  sched.blocks.forEach((b, bi) => {
    const succ = b.succs.length ? ' \u2192 ' + b.succs.map((s) => 'B' + s).join(', ') : '';
    box.append(el('div', 'sched-block', `B${bi} ${b.head}` + (b.depth ? ` (loop depth ${b.depth})` : '') + succ));
    for (const [serial, text] of b.nodes) {
      const line = lines.get(serial) || 0;
      const row = el('div', 'sched-row' + (line && asmByLine.has(line) ? ' ' + colourOf(line) : ''), `  #${serial} ${text}`);
      row.dataset.id = serial;
      row.dataset.line = line;
      box.append(row);
    }
  });
}
$('schedule').addEventListener('click', (ev) => {
  const row = ev.target.closest('.sched-row');
  if (!row) return;
  const serial = Number(row.dataset.id);
  // The schedule is of the final graph: show that pass if the node is not on screen.
  const nodes = nodesAt(state.fn, state.pass);
  if (!nodes || !nodes.some((nd) => nd.id === serial)) setPass(DATA.passes.length - 1);
  selectNode(serial, true);
});

function buildPassStrip() {
  const strip = $('passes');
  strip.textContent = '';
  const f = DATA.functions[state.fn] || { name: '', versions: [] };
  const changedAt = new Set(f.versions.map((v) => v.pass));
  DATA.passes.forEach((p, i) => {
    const b = el('button', changedAt.has(i) ? 'changed' : '', p);
    b.dataset.pass = i;
    b.title = changedAt.has(i) ? `${f.name} changed in '${p}'` : `'${p}' changed other functions only`;
    strip.append(b);
  });
  markPassStrip();
}
$('passes').addEventListener('click', (ev) => {
  const b = ev.target.closest('button');
  if (b) setPass(Number(b.dataset.pass));
});

// Which passes the selected node lives in, and which one is shown.
function markPassStrip() {
  for (const b of $('passes').children) {
    const i = Number(b.dataset.pass);
    b.classList.toggle('current', i === state.pass);
    const nodes = state.selected !== null ? nodesAt(state.fn, i) : null;
    b.classList.toggle('has-node', !!nodes && nodes.some((nd) => nd.id === state.selected));
  }
}

// ---- selection and highlighting

function highlightPanes() {
  const selNode = currentNode();
  const line = selNode ? selNode.line : state.line;
  for (const row of $('source').children) row.classList.toggle('selected-line', Number(row.dataset.line) === line && line > 0);
  for (const row of $('asm').children) row.classList.toggle('linked-line', Number(row.dataset.line) === line && line > 0);
  const layout = currentLayout();
  const inputs = new Set(selNode ? selNode.in : []);
  const uses = new Set();
  if (layout && selNode) {
    const i = layout.boxes.findIndex((b) => b.node.id === selNode.id);
    for (const k of layout.outs[i]) uses.add(layout.boxes[layout.edges[k].to].node.id);
  }
  for (const row of $('schedule').querySelectorAll('.sched-row')) {
    const id = Number(row.dataset.id);
    row.classList.toggle('selected', id === state.selected);
    row.classList.toggle('input', inputs.has(id));
    row.classList.toggle('use', uses.has(id));
    row.classList.toggle('linked-line', !selNode && state.line > 0 && Number(row.dataset.line) === state.line);
  }
}

function currentNode() {
  if (state.selected === null) return null;
  const nodes = nodesAt(state.fn, state.pass);
  return nodes ? nodes.find((nd) => nd.id === state.selected) || null : null;
}

function scrollIntoViewIn(box, selector) {
  const row = box.querySelector(selector);
  if (!row) return;
  const top = row.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  const bottom = top + row.offsetHeight;
  if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) box.scrollTop = top - box.clientHeight / 3;
}

function showInfo() {
  const info = $('info');
  info.textContent = '';
  const nd = currentNode();
  if (state.selected !== null) {
    if (!nd) {
      info.append(el('b', '', `#${state.selected}`), document.createTextNode(' is not in this pass. '));
    } else {
      info.append(el('b', '', `#${nd.id} ${nd.label}`),
        document.createTextNode((nd.type ? ' : ' + nd.type : '') + (nd.line ? `  at line ${nd.line}:${nd.col}` : '  (no source position)') +
          (nd.names.length ? '  variables: ' + nd.names.join(', ') : '')));
      info.append(el('br'));
      const layout = currentLayout();
      const i = layout.boxes.findIndex((b) => b.node.id === nd.id);
      const link = (serial) => { const a = el('a', '', '#' + serial); a.dataset.id = serial; return a; };
      info.append(document.createTextNode('inputs: '));
      nd.in.forEach((d) => info.append(d < 0 ? document.createTextNode('_ ') : link(d)));
      info.append(document.createTextNode('  uses: '));
      for (const k of layout.outs[i]) info.append(link(layout.boxes[layout.edges[k].to].node.id));
    }
    // The same node in the other passes: where it lives and how its type moved.
    info.append(el('br'), document.createTextNode('in passes: '));
    let lastType = null;
    DATA.passes.forEach((p, pi) => {
      const there = (nodesAt(state.fn, pi) || []).find((x) => x.id === state.selected);
      if (!there) return;
      const a = el('a', '', p + (lastType !== null && there.type !== lastType ? ' (' + there.type + ')' : ''));
      a.dataset.pass = pi;
      lastType = there.type;
      info.append(a);
    });
  } else if (state.line) {
    const nodes = nodesAt(state.fn, state.pass) || [];
    const here = nodes.filter((x) => x.line === state.line);
    info.append(el('b', '', `line ${state.line}`),
      document.createTextNode(`: ${here.length} node${here.length === 1 ? '' : 's'} in ${(DATA.functions[state.fn] || { name: "no function" }).name} at this pass, ` +
        `${(asmByLine.get(state.line) || []).length} machine instructions. `));
    here.forEach((x) => { const a = el('a', '', `#${x.id} ${x.label}`); a.dataset.id = x.id; info.append(a); });
  } else {
    info.textContent = 'Click a node to see its inputs, uses, source line and the passes it lives in; click a source line to see its nodes and code.';
  }
}
$('info').addEventListener('click', (ev) => {
  const a = ev.target.closest('a');
  if (!a) return;
  if (a.dataset.pass !== undefined) setPass(Number(a.dataset.pass));
  else selectNode(Number(a.dataset.id), true);
});

function refresh() {
  drawGraph();
  highlightPanes();
  markPassStrip();
  showInfo();
}

function selectNode(serial, centre) {
  state.selected = serial;
  state.line = 0;
  if (centre) showNode(serial);
  refresh();
  const nd = currentNode();
  if (nd && nd.line) {
    scrollIntoViewIn($('source'), `.src-line[data-line="${nd.line}"]`);
    scrollIntoViewIn($('asm'), `.asm-line[data-line="${nd.line}"]`);
  }
  scrollIntoViewIn($('schedule'), `.sched-row[data-id="${serial}"]`);
}

function selectLine(line) {
  state.selected = null;
  state.line = state.line === line ? 0 : line;
  refresh();
  if (state.line) {
    scrollIntoViewIn($('asm'), `.asm-line[data-line="${line}"]`);
    scrollIntoViewIn($('schedule'), `.sched-row[data-line="${line}"]`);
    const first = (nodesAt(state.fn, state.pass) || []).find((x) => x.line === line);
    if (first) { showNode(first.id); drawGraph(); }
  }
}

function setPass(p) {
  state.pass = Math.max(0, Math.min(DATA.passes.length - 1, p));
  $('pass').value = state.pass;
  $('pass-name').textContent = `${state.pass}: ${DATA.passes[state.pass]}`;
  runSearch(false);
  refresh();
}

function setFunction(fn, fit) {
  state.fn = fn;
  $('function').value = fn;
  state.matches = [];
  buildPassStrip();
  buildSchedule();
  runSearch(false);
  if (fit) fitGraph();
  refresh();
}

// ---- search: #id or a number, an opcode, a label prefix, or a variable name

function runSearch(jump) {
  const q = $('search').value.trim();
  const out = $('search-result');
  if (!q) { state.matches = []; out.textContent = ''; return; }
  const nodes = nodesAt(state.fn, state.pass) || [];
  const idMatch = /^#?(\d+)$/.exec(q);
  const lower = q.toLowerCase();
  let found;
  if (idMatch) {
    const id = Number(idMatch[1]);
    found = nodes.filter((nd) => nd.id === id);
    if (!found.length) {
      // Another function, or another pass, may have it.
      for (let f = 0; f < DATA.functions.length && !found.length; f++)
        for (let p = DATA.passes.length - 1; p >= 0 && !found.length; p--)
          if ((nodesAt(f, p) || []).some((nd) => nd.id === id)) {
            if (jump) { setFunction(f, true); setPass(p); selectNode(id, true); }
            out.textContent = `#${id}: ${DATA.functions[f].name} after ${DATA.passes[p]}`;
            return;
          }
    }
  } else {
    found = nodes.filter((nd) => nd.op.toLowerCase() === lower || nd.label.toLowerCase().startsWith(lower) ||
      nd.names.some((v) => v.toLowerCase() === lower));
  }
  state.matches = found.map((nd) => nd.id);
  out.textContent = found.length ? `${found.length} match${found.length === 1 ? '' : 'es'}` : 'no match here';
  if (jump && found.length) {
    state.matchAt = (state.matchAt + 1) % found.length;
    selectNode(found[state.matchAt].id, true);
  }
}

// ---- zoom and pan

function zoomAt(factor, cx, cy) {
  const z = Math.max(0.08, Math.min(3, state.zoom * factor));
  state.tx = cx - ((cx - state.tx) * z) / state.zoom;
  state.ty = cy - ((cy - state.ty) * z) / state.zoom;
  state.zoom = z;
  applyTransform();
  queueDraw();
}
graphSvg.addEventListener('wheel', (ev) => {
  ev.preventDefault();
  const r = graphSvg.getBoundingClientRect();
  if (ev.shiftKey) {  // shift: scroll sideways
    state.tx -= ev.deltaY || ev.deltaX;
    applyTransform();
    queueDraw();
  } else {
    zoomAt(Math.exp(-ev.deltaY * 0.0015), ev.clientX - r.left, ev.clientY - r.top);
  }
}, { passive: false });
let drag = null;
graphSvg.addEventListener('mousedown', (ev) => {
  drag = { x: ev.clientX, y: ev.clientY, tx: state.tx, ty: state.ty, moved: false };
  graphSvg.classList.add('panning');
});
window.addEventListener('mousemove', (ev) => {
  if (!drag) return;
  const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
  state.tx = drag.tx + dx; state.ty = drag.ty + dy;
  applyTransform();
  queueDraw();
});
window.addEventListener('mouseup', () => { graphSvg.classList.remove('panning'); setTimeout(() => { drag = null; }, 0); });
graphSvg.addEventListener('click', (ev) => {
  if (drag && drag.moved) return;
  const g = ev.target.closest('.node');
  if (g) selectNode(Number(g.dataset.id), false);
  else if (state.selected !== null || state.line) { state.selected = null; state.line = 0; refresh(); }
});
$('zoom-in').onclick = () => { const r = graphSvg.getBoundingClientRect(); zoomAt(1.25, r.width / 2, r.height / 2); };
$('zoom-out').onclick = () => { const r = graphSvg.getBoundingClientRect(); zoomAt(0.8, r.width / 2, r.height / 2); };
$('zoom-fit').onclick = fitGraph;
window.addEventListener('resize', queueDraw);
window.addEventListener('keydown', (ev) => {
  if (ev.target.tagName === 'INPUT' && ev.target.type !== 'range' && ev.target.type !== 'checkbox') return;
  if (ev.target.tagName === 'SELECT') return;
  if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
    if (ev.target.type !== 'range') setPass(state.pass + (ev.key === 'ArrowLeft' ? -1 : 1));
  } else if (ev.key === '+' || ev.key === '=') $('zoom-in').onclick();
  else if (ev.key === '-') $('zoom-out').onclick();
  else if (ev.key === '0') fitGraph();
  else if (ev.key === 'd') { $('diff').checked = !$('diff').checked; $('diff').onchange(); }
  else if (ev.key === '/') { ev.preventDefault(); $('search').focus(); }
});

// ---- start

$('title').textContent = `${DATA.file}  -O${DATA.opt}`;
$('source-file').textContent = DATA.file;
$('pass').max = Math.max(0, DATA.passes.length - 1);
$('pass').addEventListener('input', () => setPass(Number($('pass').value)));
$('diff').onchange = () => {
  state.diff = $('diff').checked;
  document.body.classList.toggle('diff', state.diff);
  refresh();
};
$('search').addEventListener('input', () => { state.matchAt = -1; runSearch(false); refresh(); });
$('search').addEventListener('keydown', (ev) => { if (ev.key === 'Enter') runSearch(true); });
DATA.functions.forEach((f, i) => $('function').append(new Option(f.name, i)));
$('function').addEventListener('change', () => setFunction(Number($('function').value), true));
buildSource();
buildAsm();
// Start on the entry function if there is one, else the first.
const entry = DATA.functions.findIndex((f) => f.name === 'main');
if (DATA.functions.length) {
  setFunction(entry >= 0 ? entry : 0, false);
  setPass(DATA.passes.length - 1);
  fitGraph();
} else {
  $('graph-message').textContent = 'this program has no function with a body';
  $('graph-message').hidden = false;
}
