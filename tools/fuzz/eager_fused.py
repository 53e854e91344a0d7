#!/usr/bin/env python3
"""Differential fuzzer: random MATLAB expressions run eager (MATFUSE_LAZY=0) and with every
array operation captured and fused (MATFUSE_LAZY_MIN=1); any difference in printed class, size,
values (bit-exact, %.17g of real and imaginary parts) or error text is a failure.

Inputs are drawn over shapes (scalars, rows, columns, matrices, 3-D, 0x0, 0xN, Nx0), classes
(double, single, int8/16/32, uint8/16, logical, char) and values (NaN, +-Inf, -0, negative,
huge, tiny, integers). Expressions nest operators (+ - .* ./ .\\ .^ unary -, comparisons,
& | ~), elementwise builtins, reductions with dims and 'omitnan', transposes and slices.

Usage:
  tools/fuzz/eager_fused.py --matfuse build/matfuse [--seed 1] [--cases 400] [--batch 100]
                            [--keep DIR]
Exit status 0 when every case agrees, 1 otherwise (the differing cases are printed, with a
script that reproduces each one; --keep writes them to DIR).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

CLASSES = ['double', 'double', 'double', 'single', 'int8', 'int16', 'int32', 'uint8', 'uint16',
           'logical', 'char']
SPECIAL = ['NaN', 'Inf', '-Inf', '0', '-0', '1', '-1', '0.5', '-2.5', '3', '1e300', '-1e-310',
           '127', '200', '-129', '65535', '2^31', '1e10', 'pi']
SHAPES = [(1, 1), (1, 1), (1, 5), (4, 1), (3, 4), (2, 3, 2), (0, 0), (0, 3), (3, 0), (1, 0),
          (5, 5)]
BINOPS = ['+', '-', '.*', './', '.\\', '.^', '==', '~=', '<', '<=', '>', '>=', '&', '|']
UNARY = ['abs', 'sqrt', 'exp', 'log', 'sin', 'cos', 'tan', 'atan', 'floor', 'ceil', 'round',
         'fix', 'sign', 'isnan', 'isinf', 'isfinite', 'real', 'imag', 'conj', 'log1p', 'expm1',
         'tanh', 'sinh', 'asin', 'acos', 'log2', 'log10', 'not', 'double', 'single', 'int16',
         'uint8', 'logical', 'isreal']
BIN_FN = ['max', 'min', 'atan2', 'hypot', 'mod', 'rem', 'power', 'plus', 'times']
REDUCE = ['sum', 'prod', 'max', 'min', 'mean', 'any', 'all', 'cumsum', 'cumprod', 'norm']


def literal(rng, shape, cls):
    n = 1
    for d in shape:
        n *= d
    vals = []
    for _ in range(n):
        r = rng.random()
        if r < 0.3:
            vals.append(rng.choice(SPECIAL))
        elif r < 0.6:
            vals.append(str(rng.randint(-5, 5)))
        else:
            vals.append(repr(round(rng.uniform(-10, 10), rng.randint(0, 6))))
    body = ' '.join(vals)
    if n == 0:
        base = 'zeros(%s)' % ', '.join(str(d) for d in shape)
    else:
        base = 'reshape([%s], %s)' % (body, ', '.join(str(d) for d in shape))
    if cls == 'double':
        return base
    if cls == 'logical':
        return 'logical(abs(fillmissing_(%s)))' % base
    if cls == 'char':
        return 'char(mod(abs(fillmissing_(%s)), 90) + 32)' % base
    return '%s(%s)' % (cls, base)


def expr(rng, names, depth):
    r = rng.random()
    if depth <= 0 or r < 0.25:
        if rng.random() < 0.8:
            return rng.choice(names)
        return rng.choice(['2', '-1', '0.5', 'NaN', 'Inf', 'single(3)', 'int8(-4)', 'true',
                           '[]', '(1:3)', "'a'"])
    if r < 0.55:
        return '(%s %s %s)' % (expr(rng, names, depth - 1), rng.choice(BINOPS),
                               expr(rng, names, depth - 1))
    if r < 0.72:
        return '%s(%s)' % (rng.choice(UNARY), expr(rng, names, depth - 1))
    if r < 0.8:
        return '%s(%s, %s)' % (rng.choice(BIN_FN), expr(rng, names, depth - 1),
                               expr(rng, names, depth - 1))
    if r < 0.9:
        f = rng.choice(REDUCE)
        a = expr(rng, names, depth - 1)
        if f == 'norm':
            return 'norm(double(%s))' % a
        if f in ('max', 'min'):
            return rng.choice(['%s(%s)' % (f, a), '%s(%s, [], %d)' % (f, a, rng.randint(1, 3)),
                               "%s(%s, [], 'omitnan')" % (f, a)])
        opt = rng.choice(['', ', 1', ', 2', ', 3', ", 'omitnan'", ", 'all'"])
        if f in ('any', 'all', 'cumsum', 'cumprod') and 'omitnan' in opt:
            opt = ''
        return '%s(%s%s)' % (f, a, opt)
    if r < 0.95:
        return '(%s)%s' % (expr(rng, names, depth - 1), rng.choice(["'", ".'", '(:)']))
    return '-(%s)' % expr(rng, names, depth - 1)


PRELUDE = r"""
function out = fillmissing_(x)
  out = x; out(isnan(out)) = 0; out(isinf(out)) = 1;
end
function show_(k, f)
  try
    r = f();
    fprintf('%d: %s [%s]', k, class(r), num2str(size(r)));
    if ~isreal(r), fprintf(' complex'), end
    if isnumeric(r) || islogical(r) || ischar(r)
      d = double(r);
      fprintf(' %.17g', real(d(:)));
      if ~isreal(r), fprintf(' i%.17g', imag(d(:))), end
    end
    fprintf('\n');
  catch e
    fprintf('%d: error %s | %s\n', k, e.identifier, e.message);
  end
end
"""


def make_case(rng):
    nvars = rng.randint(1, 3)
    names, lines = [], []
    for i in range(nvars):
        name = 'v%d' % i
        shape = rng.choice(SHAPES)
        if i > 0 and rng.random() < 0.6:
            shape = rng.choice([(1, 1), tuple(shape_of_first)])
        if i == 0:
            shape_of_first = shape
        lines.append('%s = %s;' % (name, literal(rng, shape, rng.choice(CLASSES))))
        names.append(name)
    return lines, expr(rng, names, rng.randint(1, 4))


def run(matfuse, path, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    p = subprocess.run([matfuse, path], capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--matfuse', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--cases', type=int, default=400)
    ap.add_argument('--batch', type=int, default=100)
    ap.add_argument('--keep', help='folder for the scripts of differing cases')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cases = [make_case(rng) for _ in range(a.cases)]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for b0 in range(0, len(cases), a.batch):
            batch = cases[b0:b0 + a.batch]
            body = []
            for k, (setup, e) in enumerate(batch):
                body.append('clear v0 v1 v2')
                body.append('try')
                body.extend('  ' + s for s in setup)
                body.append('  show_(%d, @() %s);' % (b0 + k, e))
                body.append('catch e')
                body.append("  fprintf('%d: setup error %%s\\n', e.message);" % (b0 + k))
                body.append('end')
            script = os.path.join(tmp, 'diffcase.m')
            with open(script, 'w') as f:
                f.write('\n'.join(body) + '\n' + PRELUDE)
            r0 = run(a.matfuse, script, {'MATFUSE_LAZY': '0'})
            r1 = run(a.matfuse, script, {'MATFUSE_LAZY_MIN': '1'})
            if r0[0] != 0 or r1[0] != 0:
                print('batch %d: exit %d eager, %d fused\n%s\n%s' % (b0, r0[0], r1[0],
                                                                     r0[2][-2000:],
                                                                     r1[2][-2000:]))
                failures += 1
            l0 = r0[1].splitlines()
            l1 = r1[1].splitlines()
            d0 = dict(l.split(':', 1) for l in l0 if ':' in l)
            d1 = dict(l.split(':', 1) for l in l1 if ':' in l)
            for k, (setup, e) in enumerate(batch):
                key = str(b0 + k)
                if d0.get(key) != d1.get(key):
                    failures += 1
                    print('case %s differs:\n  %s\n  y = %s\n  eager: %s\n  fused: %s' % (
                        key, '\n  '.join(setup), e, d0.get(key), d1.get(key)))
                    if a.keep:
                        os.makedirs(a.keep, exist_ok=True)
                        with open(os.path.join(a.keep, 'case%s.m' % key), 'w') as f:
                            f.write('\n'.join(setup) + '\ny = %s\n' % e +
                                    PRELUDE.split('function show_')[0])
    print('%d cases, seed %d: %d differences' % (len(cases), a.seed, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
