// The explorer page's graph layout (simplec --emit=html), layered in the
// Sugiyama style: back edges (a loop's, known from the IR, then any other
// cycle a depth-first search meets) are set aside; nodes are ranked by
// longest path from the entry, values moved down next to their first use;
// rows are ordered by barycentres in sweeps down and up; each node is placed
// under the mean of its inputs, rows pushed apart. Pure: nodes in, boxes out.
'use strict';

const NODE_H = 46, RANK_GAP = 46, NODE_GAP = 18, CHAR_W = 6.7;

// Lays out nodes (each {id, in, edges, ...}): returns positioned boxes and edges.
function layoutGraph(nodes) {
  const n = nodes.length;
  const index = new Map();
  nodes.forEach((nd, i) => index.set(nd.id, i));
  const ins = nodes.map(() => []), outs = nodes.map(() => []);
  const edges = [];
  // A loop's back edges are known from the IR: the Loop's second
  // predecessor and its Phis' values along it.
  const isLoop = (serial) => { const j = index.get(serial); return j !== undefined && nodes[j].op === 'Loop'; };
  nodes.forEach((nd, i) => nd.in.forEach((d, slot) => {
    const j = d < 0 ? undefined : index.get(d);
    if (j === undefined) return;
    const back = slot >= 2 && (nd.op === 'Loop' || (nd.op === 'Phi' && isLoop(nd.in[0])));
    edges.push({ from: j, to: i, slot, kind: nd.edges[slot] || 'd', back });
  }));
  edges.forEach((e, k) => { ins[e.to].push(k); outs[e.from].push(k); });

  // Other back edges (none in a well-formed graph, but never loop forever):
  // found by a depth-first search over inputs from the sinks.
  const colour = new Uint8Array(n);  // 0 new, 1 on the stack, 2 done
  const post = [];
  const visit = (root) => {
    const stack = [[root, 0]];
    colour[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const [v, k] = top;
      if (k < ins[v].length) {
        top[1]++;
        const e = edges[ins[v][k]];
        if (e.back) continue;
        if (colour[e.from] === 1) e.back = true;
        else if (colour[e.from] === 0) { colour[e.from] = 1; stack.push([e.from, 0]); }
      } else { colour[v] = 2; post.push(v); stack.pop(); }
    }
  };
  for (let i = n - 1; i >= 0; i--) if (outs[i].length === 0 && !colour[i]) visit(i);
  for (let i = 0; i < n; i++) if (!colour[i]) visit(i);

  // Ranks: longest path from the sources; then values move down next to their first use.
  const rank = new Int32Array(n);
  for (const v of post)
    for (const k of ins[v]) if (!edges[k].back) rank[v] = Math.max(rank[v], rank[edges[k].from] + 1);
  for (let p = post.length - 1; p >= 0; p--) {
    const v = post[p];
    if (nodes[v].cfg) continue;
    let lowest = Infinity;
    for (const k of outs[v]) if (!edges[k].back) lowest = Math.min(lowest, rank[edges[k].to] - 1);
    if (lowest !== Infinity && lowest > rank[v]) rank[v] = lowest;
  }
  let maxRank = 0;
  for (let i = 0; i < n; i++) maxRank = Math.max(maxRank, rank[i]);
  const layers = Array.from({ length: maxRank + 1 }, () => []);
  for (const v of post) layers[rank[v]].push(v);

  // Order inside layers: barycentres of the neighbours' places, down then up.
  const place = new Float64Array(n);
  const renumber = (layer) => layer.forEach((v, i) => { place[v] = (i + 0.5) / layer.length; });
  layers.forEach(renumber);
  const sweep = (layer, useInputs) => {
    const key = new Map();
    for (const v of layer) {
      let sum = 0, count = 0;
      for (const k of useInputs ? ins[v] : outs[v]) {
        const e = edges[k];
        if (e.back) continue;
        sum += place[useInputs ? e.from : e.to]; count++;
      }
      key.set(v, count ? sum / count : place[v]);
    }
    layer.sort((a, b) => key.get(a) - key.get(b) || place[a] - place[b]);
    renumber(layer);
  };
  for (let pass = 0; pass < 3; pass++) {
    for (let r = 1; r <= maxRank; r++) sweep(layers[r], true);
    for (let r = maxRank - 1; r >= 0; r--) sweep(layers[r], false);
  }

  // Coordinates: each node under the mean of its inputs, pushed apart, and
  // each layer shifted so that it sits, on average, where it wants to.
  const boxes = nodes.map((nd) => {
    const text = labelLines(nd);
    const w = Math.max(64, Math.ceil(Math.max(...text.map((t) => t.length)) * CHAR_W) + 14);
    return { node: nd, text, w, h: NODE_H, x: 0, y: 0, cx: 0 };
  });
  let width = 0;
  layers.forEach((layer, r) => {
    let right = -Infinity, drift = 0, wanted = 0;
    for (const v of layer) {
      let sum = 0, count = 0;
      for (const k of ins[v]) if (!edges[k].back) { sum += boxes[edges[k].from].cx; count++; }
      const want = count ? sum / count : (right === -Infinity ? 0 : right + NODE_GAP + boxes[v].w / 2);
      const b = boxes[v];
      b.x = Math.max(want - b.w / 2, right === -Infinity ? -Infinity : right + NODE_GAP);
      right = b.x + b.w;
      drift += b.x + b.w / 2 - want; wanted++;
    }
    const shift = wanted ? -drift / wanted : 0;
    for (const v of layer) {
      const b = boxes[v];
      b.x += shift; b.cx = b.x + b.w / 2; b.y = r * (NODE_H + RANK_GAP);
    }
  });
  let minX = Infinity;
  for (const b of boxes) minX = Math.min(minX, b.x);
  for (const b of boxes) { b.x -= minX; b.cx -= minX; width = Math.max(width, b.x + b.w); }
  const byId = new Map();
  boxes.forEach((b) => byId.set(b.node.id, b));
  return { boxes, edges, byId, ins, outs, width, height: (maxRank + 1) * (NODE_H + RANK_GAP) };
}

function labelLines(nd) {
  const head = '#' + nd.id + ' ' + nd.label;
  const type = nd.type ? ': ' + (nd.type.length > 34 ? nd.type.slice(0, 33) + '\u2026' : nd.type) : '';
  const where = (nd.line ? nd.line + ':' + nd.col : '') + (nd.names.length ? ' ' + nd.names.join(',') : '');
  return [head, type, where];
}
