// Issue 21: the README is a short front door and the reference lives in docs/. A link that leads nowhere is the
// first thing a newcomer meets when a file moves, so every relative link and picture of README.md and docs/*.md
// must name a file that exists and, when it has a #fragment, a heading of that file (GitHub's anchor rules).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const DOCS = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))];

/** The text outside fenced code blocks: a `](...)` inside a code sample is not a link. */
function prose(markdown: string): string {
  let inFence = false;
  return markdown
    .split('\n')
    .filter((line) => {
      if (line.trimStart().startsWith('```')) inFence = !inFence;
      return !inFence;
    })
    .join('\n');
}

/** GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces to `-`. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(readFileSync(file, 'utf8')).split('\n')) {
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(file: string): string[] {
  const text = prose(readFileSync(file, 'utf8')).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/i.test(href));
}

function brokenLinks(file: string): string[] {
  return linksOf(file).flatMap((href) => {
    const [path, fragment] = href.split('#', 2);
    const target = path ? resolve(dirname(file), decodeURI(path)) : file;
    if (!existsSync(target)) return [`${href}: no file ${relative(ROOT, target)}`];
    if (fragment !== undefined && target.endsWith('.md') && !anchorsOf(target).has(fragment)) {
      return [`${href}: no heading #${fragment} in ${relative(ROOT, target)}`];
    }
    return [];
  });
}

describe('README and docs/ links', () => {
  test('the anchor rule is GitHub\'s (so the check below can fail for the right reasons)', () => {
    assert.equal(anchorOf('Workers, queue and runtime routes'), 'workers-queue-and-runtime-routes');
    assert.equal(anchorOf('Admin routes (only with `--admin`)'), 'admin-routes-only-with---admin');
  });

  test('a missing file and a missing heading are reported; code samples are not links', () => {
    const dir = mkdtempSync(join(tmpdir(), 'links-'));
    const file = join(dir, 'a.md');
    writeFileSync(join(dir, 'b.md'), '# Real heading\n');
    writeFileSync(file, '# A\n[ok](b.md#real-heading) [gone](c.md) [bad](b.md#nope) [self](#a)\n```\n[not a link](x.md)\n```\n');
    assert.deepEqual(brokenLinks(file), ['c.md: no file ' + relative(ROOT, join(dir, 'c.md')), `b.md#nope: no heading #nope in ${relative(ROOT, join(dir, 'b.md'))}`]);
    const links = linksOf(join(ROOT, 'README.md'));
    assert.ok(links.some((l) => l.startsWith('docs/')), 'the README links into docs/');
  });

  for (const file of DOCS) {
    test(`every relative link of ${relative(ROOT, file)} resolves`, () => {
      assert.deepEqual(brokenLinks(file), []);
    });
  }

  test('the README stays a front door (about 250 lines at most)', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= 260, `README.md has ${lines} lines; move reference text into docs/`);
  });
});
