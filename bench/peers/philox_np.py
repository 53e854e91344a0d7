"""Philox4x32-10 streams in NumPy, matching matfuse's rand/randn (src/runtime/philox.inc).

rng(seed) sets key = splitmix64(seed) and stream offset 0; a draw of n elements takes stream
positions offset .. offset+n-1 and advances the offset by n. Position g is lane g mod L of Philox
block g // L (L = 4 single, 2 double): single rand lane l is word l, single randn lanes 0/1 (2/3)
are the cosine and sine Box-Muller branches of words 0-1 (2-3); double rand lanes are words 0-1
and 2-3, double randn lanes the cosine and sine branches of u1 = words 0-1, u2 = words 2-3.
Uniforms are bit-identical to matfuse's; normals use the same Box-Muller formula with NumPy's
log/cos/sin, so they agree to a few ulps.
"""
import numpy as np

M64 = (1 << 64) - 1


def key_from_seed(seed):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def philox(counters, key):
    """Four uint32 words for each uint64 counter."""
    c0 = (counters & 0xFFFFFFFF).astype(np.uint64)
    c1 = (counters >> np.uint64(32)).astype(np.uint64)
    c2 = np.zeros_like(c0)
    c3 = np.zeros_like(c0)
    k0, k1 = key & 0xFFFFFFFF, key >> 32
    lo_mask = np.uint64(0xFFFFFFFF)
    for r in range(10):
        if r:
            k0 = (k0 + 0x9E3779B9) & 0xFFFFFFFF
            k1 = (k1 + 0xBB67AE85) & 0xFFFFFFFF
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        hi0, lo0 = p0 >> np.uint64(32), p0 & lo_mask
        hi1, lo1 = p1 >> np.uint64(32), p1 & lo_mask
        c0, c1, c2, c3 = hi1 ^ c1 ^ np.uint64(k0), lo1, hi0 ^ c3 ^ np.uint64(k1), lo0
    return c0, c1, c2, c3


def u01_double(a, b):
    m = ((a >> np.uint64(5)) << np.uint64(26)) | (b >> np.uint64(6))
    u = m.astype(np.float64) * 2.0 ** -53
    u[m == 0] = 2.0 ** -54
    return u


def u01_float(a):
    m = a >> np.uint64(8)
    u = m.astype(np.float32) * np.float32(2.0 ** -24)
    u[m == 0] = np.float32(2.0 ** -25)
    return u


class Stream:
    def __init__(self, seed=0):
        self.key = key_from_seed(seed)
        self.offset = 0

    def _positions(self, n):
        g = np.arange(self.offset, self.offset + n, dtype=np.uint64)
        self.offset += n
        return g

    def rand(self, shape, dtype=np.float64):
        n = int(np.prod(shape))
        g = self._positions(n)
        if dtype == np.float32:
            w = philox(g >> np.uint64(2), self.key)
            lane = (g & np.uint64(3)).astype(np.int64)
            u = u01_float(np.choose(lane, w))
        else:
            w = philox(g >> np.uint64(1), self.key)
            odd = (g & np.uint64(1)).astype(bool)
            u = u01_double(np.where(odd, w[2], w[0]), np.where(odd, w[3], w[1]))
        return u.reshape(shape, order="F")

    def randn(self, shape, dtype=np.float64):
        n = int(np.prod(shape))
        g = self._positions(n)
        sine = (g & np.uint64(1)).astype(bool)
        if dtype == np.float32:
            w = philox(g >> np.uint64(2), self.key)
            hi = (g & np.uint64(2)).astype(bool)
            u1 = u01_float(np.where(hi, w[2], w[0]))
            u2 = u01_float(np.where(hi, w[3], w[1]))
            r = np.sqrt(np.float32(-2) * np.log(u1))
            t = np.float32(2 * np.pi) * u2
        else:
            w = philox(g >> np.uint64(1), self.key)
            u1, u2 = u01_double(w[0], w[1]), u01_double(w[2], w[3])
            r = np.sqrt(-2 * np.log(u1))
            t = 2 * np.pi * u2
        z = r * np.where(sine, np.sin(t), np.cos(t))
        return z.astype(dtype).reshape(shape, order="F")
