# Near-minimax polynomial coefficients for the kernels of src/runtime/mf_math.inc: Chebyshev
# interpolation in 60-digit mpmath arithmetic, rounded to double, then the maximum (weighted)
# error of the rounded polynomial measured in 400-digit arithmetic on a dense grid.
# Usage: python3 tests/tools/mf_math_fitpoly.py [exp] [log] [trig] [atan] [pow]   (needs mpmath)
import mpmath as mp
mp.mp.dps = 60

def cheb_fit(f, a, b, n):
    a, b = mp.mpf(a), mp.mpf(b)
    nodes = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (2 * k + 1) / (2 * (n + 1))) for k in range(n + 1)]
    A = mp.matrix([[x ** j for j in range(n + 1)] for x in nodes])
    with mp.workdps(400):
        y = mp.matrix([f(x) for x in nodes])
    c = mp.lu_solve(A, y)
    return [c[j] for j in range(n + 1)]

def to_double(c):
    return [float(x) for x in c]

def horner(c, x):
    p = mp.mpf(c[-1])
    for v in reversed(c[:-1]):
        p = p * x + mp.mpf(v)
    return p

def report(name, f, a, b, n, weight=lambda x: 1, grid=4000):
    c = to_double(cheb_fit(f, a, b, n))
    worst = 0
    for i in range(grid + 1):
        x = mp.mpf(a) + (mp.mpf(b) - mp.mpf(a)) * i / grid
        with mp.workdps(400):
            fx = f(x)
        e = abs((horner(c, x) - fx) * weight(x))
        worst = max(worst, e)
    print(f"{name} deg {n}: max weighted err {mp.nstr(worst, 5)} = 2^{mp.nstr(mp.log(worst, 2), 4) if worst else '-inf'}")
    print("  " + ", ".join(float.hex(v) for v in c))
    return c

def safe(f, lim):
    # series-backed evaluation near 0 to avoid cancellation (60 digits suffices anyway)
    return f

import sys
which = sys.argv[1:]
R = mp.log(2) / 2 * mp.mpf('1.0001')
if 'exp' in which or not which:
    # expm1(r) = r + r^2 P(r); weight r^2/|q| ~ |r| (relative error of q), and exp's abs error r^2
    f = lambda r: (mp.expm1(r) - r) / r**2 if r != 0 else mp.mpf(1) / 2
    for n in (6, 7, 8):
        report('expm1P', f, -R, R, n, weight=lambda r: r * r)
if 'log' in which or not which:
    S = (mp.sqrt(2) - 1) / (mp.sqrt(2) + 1)
    Z = S * S * mp.mpf('1.0001')
    f = lambda z: (mp.atanh(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else mp.mpf(1) / 3
    for n in (4, 5, 6):
        report('logL', f, 0, Z, n, weight=lambda z: z)
if 'trig' in which or not which:
    Z = (mp.pi / 4) ** 2 * mp.mpf('1.0002')
    fs = lambda z: (mp.sin(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else -mp.mpf(1) / 6
    fc = lambda z: (mp.cos(mp.sqrt(z)) - 1 + z / 2) / z**2 if z != 0 else mp.mpf(1) / 24
    for n in (4, 5, 6):
        report('sinS', fs, 0, Z, n, weight=lambda z: z)
        report('cosC', fc, 0, Z, n, weight=lambda z: z * z / mp.cos(mp.sqrt(z)))
if 'atan' in which or not which:
    T = mp.tan(mp.pi / 12) * mp.mpf('1.0001')
    Z = T * T
    f = lambda z: (mp.atan(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else -mp.mpf(1) / 3
    for n in (7, 8, 9):
        report('atanA', f, 0, Z, n, weight=lambda z: z)
if 'pow' in which or not which:
    # Tables and polynomials of mf_powf's double-precision path. log2: the float bits of z
    # in [OFF, 2*OFF) (OFF = 0x3f330000) split into 32 equal ranges of 2^18 codes; invc = 1/c
    # rounded to double for the range's midpoint c (exactly 1 for the range containing 1),
    # log2c = -log2(invc) rounded to double; log2(1 + r) = r*P(r) over the union of the ranges
    # of r = z*invc - 1 (weight: relative). exp2: T[j] = 2^(j/32) rounded to double;
    # 2^r = 1 + r*Q(r), |r| <= 1/64.
    import struct
    f32 = lambda u: mp.mpf(struct.unpack('f', struct.pack('I', u))[0])
    OFF = 0x3f330000
    invc, log2c, rlo, rhi = [], [], mp.mpf(0), mp.mpf(0)
    for i in range(32):
        lo, hi = f32(OFF + (i << 18)), f32(OFF + ((i + 1) << 18) - 1)
        v = 1.0 if lo <= 1 <= hi else float(2 / (lo + hi))
        invc.append(v)
        log2c.append(float(-mp.log(mp.mpf(v), 2)))
        rlo, rhi = min(rlo, lo * mp.mpf(v) - 1), max(rhi, hi * mp.mpf(v) - 1)
    print(f"log2 r range [{mp.nstr(rlo, 6)}, {mp.nstr(rhi, 6)}]")
    print("invc: " + ", ".join(float.hex(v) for v in invc))
    print("log2c: " + ", ".join(float.hex(v) for v in log2c))
    lp = lambda r: mp.log(1 + r, 2) / r if r != 0 else 1 / mp.log(2)
    for n in (4, 5, 6):
        report('log2P', lp, rlo * mp.mpf('1.0001'), rhi * mp.mpf('1.0001'), n,
               weight=lambda r: 1 / lp(r))
    print("T: " + ", ".join(float.hex(float(mp.power(2, mp.mpf(j) / 32))) for j in range(32)))
    eq = lambda r: (mp.power(2, r) - 1) / r if r != 0 else mp.log(2)
    E = mp.mpf(1) / 64 * mp.mpf('1.0001')
    for n in (3, 4):
        report('exp2Q', eq, -E, E, n, weight=lambda r: r)
