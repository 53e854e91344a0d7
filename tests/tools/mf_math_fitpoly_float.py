# Near-minimax polynomials with FLOAT coefficients for the float-only fast paths of
# src/runtime/mf_math.inc and the randn transform of src/runtime/philox.inc.
# Method: Chebyshev least-squares fit on Chebyshev nodes in 60-digit mpmath arithmetic; the coefficients are rounded to
# float one at a time from the lowest degree up, the higher ones being refitted to the residual
# after each rounding (so later coefficients absorb the earlier rounding errors); the weighted
# error of the final float polynomial is measured in 100-digit arithmetic on a dense grid.
# Usage: python3 tests/tools/mf_math_fitpoly_float.py [exp] [log] [trig] [tanh] [sinhcosh]
#   (needs mpmath; exp prints the degree-4 P of tanh's upper branch and the degree-5 one of exp)
import struct, sys
import mpmath as mp
mp.mp.dps = 60

def to_float(v):
    return struct.unpack('f', struct.pack('f', float(v)))[0]

def cheb_nodes(a, b, n):
    return [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (2 * k + 1) / (2 * (n + 1))) for k in range(n + 1)]

def fit(f, a, b, n, fixed):
    """Least-squares fit of f on Chebyshev nodes with a polynomial of degree n whose first len(fixed)
    coefficients are given."""
    a, b = mp.mpf(a), mp.mpf(b)
    m = len(fixed)
    nodes = cheb_nodes(a, b, 4 * (n + 1) - 1)  # even count: no node at 0; least squares
    A = mp.matrix([[x ** j for j in range(m, n + 1)] for x in nodes])
    y = mp.matrix([f(x) - sum(mp.mpf(c) * x ** j for j, c in enumerate(fixed)) for x in nodes])
    c = mp.qr_solve(A, y)[0]
    return list(fixed) + [c[j] for j in range(n - m + 1)]

def horner(c, x):
    p = mp.mpf(c[-1])
    for v in reversed(c[:-1]):
        p = p * x + mp.mpf(v)
    return p

def report(name, f, a, b, n, weight=lambda x: 1, grid=3000):
    fixed = []
    for j in range(n + 1):
        c = fit(f, a, b, n, fixed)
        fixed.append(to_float(c[j]))
    worst = 0
    for i in range(grid + 1):
        x = mp.mpf(a) + (mp.mpf(b) - mp.mpf(a)) * i / grid
        e = abs((horner(fixed, x) - f(x)) * weight(x))
        worst = max(worst, e)
    print(f"{name} deg {n}: max weighted err 2^{mp.nstr(mp.log(worst, 2), 4) if worst else '-inf'}")
    print("  " + ", ".join(float.hex(v) for v in fixed))
    return fixed

which = sys.argv[1:] or ['exp', 'log', 'trig']
if 'exp' in which:
    # e^r = 1 + r + r^2 P(r), |r| <= ln2/2 (+slack); weight r^2/e^r: error relative to e^r.
    R = mp.log(2) / 2 * mp.mpf('1.001')
    f = lambda r: (mp.expm1(r) - r) / r**2 if r != 0 else mp.mpf(1) / 2
    for n in (4, 5):
        report('expP', f, -R, R, n, weight=lambda r: r * r / mp.exp(r))
if 'log' in which:
    # log(1+t) = t + t^2 Q(t), t = m - 1, m in [sqrt(1/2), sqrt(2)); weight t^2/|log1p t|.
    a, b = mp.sqrt(0.5) - 1 - mp.mpf('1e-6'), mp.sqrt(2) - 1 + mp.mpf('1e-6')
    f = lambda t: (mp.log1p(t) - t) / t**2 if t != 0 else -mp.mpf(1) / 2
    for n in (9, 10):
        report('logQ', f, a, b, n, weight=lambda t: t * t / abs(mp.log1p(t)) if t != 0 else 0)
if 'trig' in which:
    # sin(r) = r + r z S(z), cos(r) = 1 - z/2 + z^2 C(z), z = r^2, |r| <= 0.8: pi/4 plus the
    # overshoot of the quadrant chosen from the float product x*(2/pi) for |x| < 2^19.
    Z = mp.mpf('0.64')
    fs = lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else -mp.mpf(1) / 6
    fc = lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z**2 if z != 0 else mp.mpf(1) / 24
    for n in (3,):
        report('sinS', fs, 0, Z, n, weight=lambda z: z)
        report('cosC', fc, 0, Z, n, weight=lambda z: z * z / mp.cos(mp.sqrt(z)))
if 'tanh' in which:
    # tanh(a) = a + a*z*T(z), z = a^2, a < 0.55 (z < 0.3025); weight a*z/tanh(a): error
    # relative to tanh. Degree 4 gives 2^-28 (degree 3: 2^-22.8, too coarse).
    Z = mp.mpf('0.55') ** 2
    ft = lambda z: (mp.tanh(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else -mp.mpf(1) / 3
    for n in (3, 4):
        report('tanhT', ft, 0, Z, n, weight=lambda z: z * mp.sqrt(z) / mp.tanh(mp.sqrt(z)) if z != 0 else 0)
if 'sinhcosh' in which:
    # sinh(r) = r + r*z*S(z), cosh(r) = 1 + z/2 + z^2*C(z), z = r^2, |r| <= 0.55 (sinh keeps
    # r = a below 0.55; above, |r| <= ln2/2); weights z (relative to sinh r) and z^2 (cosh >= 1).
    Z = mp.mpf('0.55') ** 2
    fs = lambda z: (mp.sinh(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else mp.mpf(1) / 6
    fc = lambda z: (mp.cosh(mp.sqrt(z)) - 1 - z / 2) / z**2 if z != 0 else mp.mpf(1) / 24
    report('sinhS', fs, 0, Z, 2, weight=lambda z: z)
    report('coshC', fc, 0, Z, 2, weight=lambda z: z * z)
