#!/usr/bin/env node
// Checks that cannot lie (issue 22), run by `npm run lint` beside eslint's rules on test files
// (eslint.config.js: no skip/only/todo, no expect(a ?? b).toBeTruthy(), no empty test). This finds
// what a syntax rule cannot: a test that asserts nothing (no expect/assert, directly or through a
// helper that asserts), and a test that returns early without asserting why (a silent skip).
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import ts from 'typescript';

const files = execSync("git ls-files -co --exclude-standard 'apps/**/*.ts' 'apps/**/*.tsx' 'packages/**/*.ts'", { encoding: 'utf8' })
  .split('\n').filter((f) => f && !f.includes('node_modules') && fs.existsSync(f));
const isTest = (f) => /\.(test|spec)\.tsx?$/.test(f);
const testish = (f) => isTest(f) || /(^|\/)(test|e2e)\//.test(f) || /fixtures?\.ts$/.test(f);

const parsed = new Map();
for (const f of files.filter(testish)) parsed.set(f, ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true, f.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS));

const ASSERTS = /^(expect|assert)/;
const calledNames = (node) => {
  const out = new Set();
  const visit = (n) => {
    if (ts.isCallExpression(n) || ts.isTaggedTemplateExpression(n)) {
      let e = ts.isCallExpression(n) ? n.expression : n.tag;
      while (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) e = ts.isCallExpression(e) ? e.expression : e.expression;
      if (ts.isIdentifier(e)) out.add(e.text);
    }
    if (ts.isPropertyAccessExpression(n)) out.add(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
};

// Helpers that assert: functions (declarations, const arrows, methods) whose body calls expect/assert
// or another such helper; to a fixed point across every test file and test helper.
const helpers = [];
for (const sf of parsed.values()) {
  const visit = (n) => {
    if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) && n.name && n.body) helpers.push([n.name.getText(sf), calledNames(n.body)]);
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) helpers.push([n.name.text, calledNames(n.initializer.body)]);
    if (ts.isPropertyAssignment(n) && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) helpers.push([n.name.getText(sf), calledNames(n.initializer.body)]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
const asserting = new Set();
for (let changed = true; changed;) {
  changed = false;
  for (const [name, calls] of helpers) {
    if (asserting.has(name)) continue;
    if ([...calls].some((c) => ASSERTS.test(c) || asserting.has(c))) { asserting.add(name); changed = true; }
  }
}
const asserts = (node) => [...calledNames(node)].some((c) => ASSERTS.test(c) || asserting.has(c));

const problems = [];
for (const [f, sf] of parsed) {
  if (!isTest(f)) continue;
  const visit = (n) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && /^(it|test)$/.test(n.expression.text)) {
      const fn = n.arguments.find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      const title = n.arguments[0]?.getText(sf).slice(0, 80);
      const where = `${f}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
      if (fn && !asserts(fn.body)) problems.push(`${where} ${title}: asserts nothing (no expect/assert, nor a helper that asserts)`);
      if (fn && ts.isBlock(fn.body)) {
        for (const st of fn.body.statements) {
          if (!ts.isIfStatement(st)) continue;
          const returns = (s) => s && (ts.isReturnStatement(s) || (ts.isBlock(s) && s.statements.some((x) => ts.isReturnStatement(x))));
          if (returns(st.thenStatement) && !asserts(st.thenStatement)) problems.push(`${where} ${title}: returns early without asserting why (a silent skip)`);
        }
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`\n${problems.length} test(s) that cannot fail or skip in silence (scripts/check-tests.mjs)`);
  process.exit(1);
}
console.log(`check-tests: ${[...parsed.keys()].filter(isTest).length} test files, every test asserts and none skips in silence`);
