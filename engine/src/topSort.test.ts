/**
 * HyperFormula's topological sort as `patches/hyperformula+3.5.0.patch` makes it (per-node state in typed arrays,
 * edges walked in place, single-node components taken off the stack without a list) answers exactly what HyperFormula
 * 3.5.0's own sort answers: the same nodes sorted and on cycles, in the same order, with the same calls to recompute
 * them. Both of the package's builds are checked.
 */
import { describe, expect, it } from 'vitest';
import { HYPERFORMULA_BUILDS, hyperformulaExport, seededRandom } from './testing';

interface SortAnswer<N> {
  sorted: N[];
  cycled: N[];
}

interface TopSortClass {
  new (
    nodes: (Node | undefined)[],
    edges: (number | undefined)[][],
  ): {
    getTopSortedWithSccSubgraphFrom(
      modified: number[],
      operating: (node: Node) => boolean,
      onCycle: (node: Node) => void,
    ): SortAnswer<Node>;
  };
}

interface Node {
  id: number;
}

/**
 * HyperFormula 3.5.0's `TopSort` as published (src/DependencyGraph/TopSort.ts, Copyright (c) 2025 Handsoncode,
 * GPL-3.0): an iterative Tarjan's algorithm over sparse arrays. The reference the patched sort must equal.
 */
function referenceTopSort(
  nodes: (Node | undefined)[],
  edges: (number | undefined)[][],
  modifiedNodeIds: number[],
  operatingFunction: (node: Node) => boolean,
  onCycle: (node: Node) => void,
): SortAnswer<Node | undefined> {
  const ON_STACK = 0;
  const PROCESSED = 1;
  const POPPED = 2;
  const entranceTime: number[] = [];
  const low: number[] = [];
  const parent: number[] = [];
  const inSCC: boolean[] = [];
  const nodeStatus: number[] = [];
  const order: number[] = [];
  const sccNonSingletons: boolean[] = [];
  let timeCounter = 0;
  const adjacentOf = (id: number) =>
    (edges[id] ?? []).filter((a): a is number => a !== undefined && nodes[a] !== undefined);
  const runDFS = (v: number) => {
    if (nodeStatus[v] !== undefined) return;
    nodeStatus[v] = ON_STACK;
    const dfs = [v];
    const scc: number[] = [];
    while (dfs.length > 0) {
      const u = dfs[dfs.length - 1] as number;
      if (nodeStatus[u] === ON_STACK) {
        entranceTime[u] = timeCounter;
        low[u] = timeCounter;
        timeCounter++;
        scc.push(u);
        for (const t of adjacentOf(u)) {
          if (entranceTime[t] === undefined) {
            dfs.push(t);
            parent[t] = u;
            nodeStatus[t] = ON_STACK;
          }
        }
        nodeStatus[u] = PROCESSED;
      } else if (nodeStatus[u] === PROCESSED) {
        let uLow = entranceTime[u] as number;
        for (const t of adjacentOf(u)) {
          if (inSCC[t]) continue;
          uLow = parent[t] === u ? Math.min(uLow, low[t] as number) : Math.min(uLow, entranceTime[t] as number);
        }
        low[u] = uLow;
        if (uLow === entranceTime[u]) {
          const current: number[] = [];
          do {
            current.push(scc.pop() as number);
          } while (current[current.length - 1] !== u);
          for (const t of current) inSCC[t] = true;
          order.push(...current);
          if (current.length > 1) for (const t of current) sccNonSingletons[t] = true;
        }
        dfs.pop();
        nodeStatus[u] = POPPED;
      } else dfs.pop();
    }
  };
  const reversed = modifiedNodeIds.reverse();
  for (const id of reversed) runDFS(id);
  const shouldBeUpdated: boolean[] = [];
  for (const t of reversed) shouldBeUpdated[t] = true;
  const sorted: (Node | undefined)[] = [];
  const cycled: (Node | undefined)[] = [];
  order.reverse();
  for (const t of order) {
    const adjacent = adjacentOf(t);
    const node = nodes[t] as Node;
    if (sccNonSingletons[t] || adjacent.includes(t)) {
      cycled.push(node);
      onCycle(node);
      for (const s of adjacent) shouldBeUpdated[s] = true;
    } else {
      sorted.push(node);
      if (shouldBeUpdated[t] && operatingFunction(node)) for (const s of adjacent) shouldBeUpdated[s] = true;
    }
  }
  return { sorted, cycled };
}

/**
 * A graph as HyperFormula keeps one: nodes in a sparse array (removed ones are holes), each node's dependents in a
 * sparse array that may hold holes and ids of removed nodes; with chains, fan-outs, self-references and cycles.
 */
function randomGraph(random: () => number) {
  const size = 5 + Math.floor(random() * 300);
  const nodes: (Node | undefined)[] = [];
  const edges: (number | undefined)[][] = [];
  for (let id = 0; id < size; id++) {
    edges[id] = [];
    if (random() < 0.9) nodes[id] = { id };
  }
  const pick = () => Math.floor(random() * size);
  for (let id = 0; id < size; id++) {
    const list = edges[id] as (number | undefined)[];
    const count = random() < 0.05 ? 20 : Math.floor(random() * 4);
    for (let k = 0; k < count; k++) {
      // Mostly forward, as formulas further down a sheet depend on those above; sometimes back, making cycles.
      const forward = Math.min(size - 1, id + 1 + Math.floor(random() * 10));
      list.push(random() < 0.85 ? forward : pick());
    }
    if (random() < 0.02) list.push(id);
    // A dependent removed from the list leaves a hole.
    if (list.length > 1 && random() < 0.1) delete list[Math.floor(random() * list.length)];
  }
  const present = [...nodes.keys()].filter((id) => nodes[id] !== undefined);
  const modified = present.filter(() => random() < 0.05);
  if (modified.length === 0 && present[0] !== undefined) modified.push(present[0]);
  // Whether recomputing a node changes its value: fixed per node, so both sorts are asked the same.
  const changes = present.map(() => random() < 0.7);
  return { nodes, edges, modified, changes };
}

describe.each(Object.entries(HYPERFORMULA_BUILDS))("HyperFormula's topological sort (%s)", (_name, build) => {
  it('is the patched one: per-node state in typed arrays', async () => {
    const TopSort = await hyperformulaExport<TopSortClass>(build, 'DependencyGraph/TopSort', 'TopSort');
    const sort = new TopSort([], [[]]) as unknown as Record<string, unknown>;
    expect(sort.nodeStatus).toBeInstanceOf(Uint8Array);
    expect(sort.entranceTime).toBeInstanceOf(Int32Array);
  });

  it('answers what HyperFormula 3.5.0 answers, on 500 seeded random graphs', async () => {
    const TopSort = await hyperformulaExport<TopSortClass>(build, 'DependencyGraph/TopSort', 'TopSort');
    for (let seed = 1; seed <= 500; seed++) {
      const { nodes, edges, modified, changes } = randomGraph(seededRandom(seed));
      const run = (sort: (operating: (n: Node) => boolean, onCycle: (n: Node) => void) => SortAnswer<unknown>) => {
        const calls: string[] = [];
        const answer = sort(
          (n) => {
            calls.push(`recompute ${n.id}`);
            return changes[n.id] ?? false;
          },
          (n) => calls.push(`cycle ${n.id}`),
        );
        return { ...answer, calls };
      };
      const expected = run((operating, onCycle) => referenceTopSort(nodes, edges, [...modified], operating, onCycle));
      const actual = run((operating, onCycle) =>
        new TopSort(nodes, edges).getTopSortedWithSccSubgraphFrom([...modified], operating, onCycle),
      );
      expect(actual, `seed ${seed}`).toEqual(expected);
    }
  });
});
