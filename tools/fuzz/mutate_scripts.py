#!/usr/bin/env python3
"""Mutation fuzzer for whole scripts: mutates the project's test scripts (tests/scripts,
tests/errors) and runs each mutant under matfuse with a time and memory limit. A mutant may
fail with a MATLAB error (exit 1); a crash (signal), an internal error (exit 2, "internal
error"), a sanitizer report or a time-out is a finding, saved with its output under --out.

Usage: tools/fuzz/mutate_scripts.py --matfuse build/matfuse --count 10000 [--seed 1]
                                    [--out findings/] [--timeout 10] [--jobs 2]
Environment for every run: MATFUSE_MAX_ARRAY_BYTES=268435456; half of the runs also set
MATFUSE_LAZY_MIN=1 (every operation captured and fused).
"""
import argparse
import concurrent.futures as cf
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

EDGE = ['[]', 'NaN', 'Inf', '-Inf', '0', '-1', '1e308', '2^53', '2^63', '-2^31', "''", '{}',
        'zeros(0,3)', 'int8(-128)', 'uint64(18446744073709551615)', 'single(NaN)', 'true',
        '1:40000', 'ones(200,200)', "'abc'", '"str"', 'struct()', 'cell(2)', '1i', '-0', 'pi',
        '@sin', '@(x) x']
BAD = ['system', 'unix', 'dos', '!', 'exit', 'quit', 'delete', 'rmdir', 'mkdir', 'movefile',
       'copyfile', 'setenv', 'input', 'keyboard', 'pause', 'diary', 'cd ', 'cd(']


def mutate(rng, text, corpus):
    lines = text.split('\n')
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if not lines:
            lines = ['x = 1;']
        i = rng.randrange(len(lines))
        if r < 0.2:  # replace a number or a name with an edge value
            toks = list(re.finditer(r'\b\d+(\.\d+)?(e[+-]?\d+)?\b|\b[a-z]\w*\b', lines[i]))
            if toks:
                m = rng.choice(toks)
                lines[i] = lines[i][:m.start()] + rng.choice(EDGE) + lines[i][m.end():]
        elif r < 0.35:  # delete a line
            del lines[i]
        elif r < 0.5:  # duplicate a line elsewhere
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
        elif r < 0.65:  # splice a line from another script
            other = rng.choice(corpus).split('\n')
            lines.insert(i, rng.choice(other))
        elif r < 0.75:  # delete a character span
            s = lines[i]
            if s:
                a = rng.randrange(len(s))
                lines[i] = s[:a] + s[a + rng.randint(1, 4):]
        elif r < 0.85:  # insert a bracket or operator
            s = lines[i]
            a = rng.randrange(len(s) + 1)
            lines[i] = s[:a] + rng.choice(['(', ')', '[', ']', '{', '}', "'", '.^', ',', ';',
                                            ':', 'end', '@', '.', '~']) + s[a:]
        else:  # wrap an expression in a builtin
            s = lines[i]
            m = re.search(r'=\s*(.+?);?\s*$', s)
            if m:
                f = rng.choice(['sum', 'cumsum', 'sort', 'unique', 'reshape', 'num2str',
                                'repmat', 'diff', 'fliplr', 'squeeze', 'permute', 'cellfun',
                                'any', 'max', 'histcounts', 'accumarray', 'regexp', 'sprintf',
                                'isequal', 'nchoosek', 'blanks', 'cell', 'kron', 'mat2str'])
                arg = rng.choice(EDGE)
                lines[i] = s[:m.start(1)] + '%s(%s, %s)' % (f, m.group(1), arg) + ';'
    return '\n'.join(lines)


def run_one(args):
    matfuse, text, fused, timeout = args
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, 'mutant.m')
        with open(p, 'w') as f:
            f.write(text)
        env = dict(os.environ, MATFUSE_MAX_ARRAY_BYTES='268435456')
        if fused:
            env['MATFUSE_LAZY_MIN'] = '1'
        try:
            r = subprocess.run(['bash', '-c', 'ulimit -v 4000000; exec "$0" mutant.m', matfuse],
                               cwd=d, capture_output=True, timeout=timeout, env=env,
                               stdin=subprocess.DEVNULL)
            out = r.stderr.decode('utf-8', 'replace')[-3000:]
            bad = r.returncode < 0 or r.returncode > 2 or 'internal error' in out or \
                'Sanitizer' in out or 'runtime error:' in out
            # Out of memory under the address-space limit is not a finding.
            if r.returncode == 2 and ('std::bad_alloc' in out):
                bad = False
            return ('crash' if bad else 'ok', r.returncode, out)
        except subprocess.TimeoutExpired:
            return ('timeout', None, '')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--matfuse', required=True)
    ap.add_argument('--count', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--out', default='fuzz-findings')
    ap.add_argument('--timeout', type=float, default=10)
    ap.add_argument('--jobs', type=int, default=2)
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
    files = glob.glob(os.path.join(root, 'tests', 'scripts', '*.m')) + \
        glob.glob(os.path.join(root, 'tests', 'errors', '*.m'))
    corpus = [open(f, encoding='utf-8', errors='replace').read() for f in files]
    corpus = [c for c in corpus if not any(b in c for b in BAD)]
    rng = random.Random(a.seed)
    work = []
    for k in range(a.count):
        t = mutate(rng, rng.choice(corpus), corpus)
        if any(b in t for b in BAD):
            t = 'x = 1;'
        work.append((a.matfuse, t, k % 2 == 1, a.timeout))
    counts = {'ok': 0, 'crash': 0, 'timeout': 0}
    os.makedirs(a.out, exist_ok=True)
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for k, res in enumerate(ex.map(run_one, work)):
            kind, rc, out = res
            counts[kind] += 1
            if kind != 'ok':
                base = os.path.join(a.out, '%s_%d' % (kind, k))
                with open(base + '.m', 'w') as f:
                    f.write(work[k][1])
                with open(base + '.txt', 'w') as f:
                    f.write('fused=%s rc=%s\n%s' % (work[k][2], rc, out))
    print('%d mutants, seed %d: %d ok (incl. MATLAB errors), %d crashes/internal errors, '
          '%d time-outs; findings in %s' % (a.count, a.seed, counts['ok'], counts['crash'],
                                           counts['timeout'], a.out))
    return 1 if counts['crash'] else 0


if __name__ == '__main__':
    sys.exit(main())
