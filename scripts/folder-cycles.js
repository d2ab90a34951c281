#!/usr/bin/env node
// Folder-level import cycles in src/: every relative import of a .ts file (static, type-only, `export … from`,
// dynamic import()) is an edge from the importing file's folder to the imported file's folder. A set of folders
// that import each other in a circle cannot be understood, tested or moved one at a time, so any such set (a
// strongly connected component of more than one folder) is printed with the imports that create it, and the exit
// code is 1. Usage: node scripts/folder-cycles.js [root, default src]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'src');
const IMPORT = /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const show = (path) => relative(dirname(root), path);

/** folder -> folder -> the imports ("file -> file") that make the edge. */
function folderEdges(files) {
  const edges = new Map();
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
      if (!target.startsWith(root)) continue;
      const from = show(dirname(file));
      const to = show(dirname(target));
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, []);
      targets.get(to).push(`${show(file)} -> ${show(target)}${/^(?:import|export)\s+type\s/.test(match[0]) ? ' (type only)' : ''}`);
    }
  }
  return edges;
}

/** Tarjan's strongly connected components. */
function components(edges) {
  const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets.keys()])])].sort();
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, index.size);
    low.set(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    found.push(component.sort());
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return { nodes, found };
}

const files = sourceFiles(root);
const edges = folderEdges(files);
const { nodes, found } = components(edges);
const cycles = found.filter((component) => component.length > 1);
const edgeCount = [...edges.values()].reduce((sum, targets) => sum + targets.size, 0);
console.log(`${files.length} files, ${nodes.length} folders, ${edgeCount} folder edges`);
if (cycles.length === 0) {
  console.log('no folder-level import cycles');
  process.exit(0);
}
for (const cycle of cycles) {
  const members = new Set(cycle);
  console.log(`\ncycle among: ${cycle.join(', ')}`);
  for (const from of cycle) {
    for (const [to, imports] of edges.get(from) ?? []) {
      if (members.has(to)) console.log(`  ${from} -> ${to}\n    ${imports.join('\n    ')}`);
    }
  }
}
process.exit(1);
