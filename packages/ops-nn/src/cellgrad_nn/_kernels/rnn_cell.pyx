"""The elementwise part of LSTM and GRU time steps, forward and backward, in one pass each.

numpy spends about ten passes (and as many calls) per step on the gates; at batch 1 the calls
dominate and at batch 32 the passes do. The recurrent matrix product stays with numpy's BLAS,
except at batch 1 where `LSTMSteps.run` and `gru_run` do whole float32 sequences here (a BLAS
call per step costs more than its matrix-vector product). float32 runs on GCC vector
extensions (AVX2 + FMA when the CPU has it); float64 (gradient checks) on plain loops.
Gate orders are MindSpore's: LSTM i, f, g, o; GRU r, z, n.
"""

from cython cimport floating
from libc.math cimport exp, tanh

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #pragma GCC diagnostic ignored "-Wpsabi"
    /* float32 gates L lanes at a time with GCC vector extensions: 4 (SSE2, every x86-64) and
       8 (AVX2 with FMA, chosen at run time). exp is Cephes' expf (about 2 ulp) without libm
       calls or branches: glibc's expf and tanhf are scalar calls, and the gates spent most of
       their time in them. NaN stays NaN (both clamping comparisons are false). */
    #define CG_GATES(S, L, ATTR)                                                              \
    typedef float cg_v##S __attribute__((vector_size(4 * L)));                               \
    typedef int32_t cg_i##S __attribute__((vector_size(4 * L)));                             \
    ATTR static inline cg_v##S cg_ld##S(const float *p, long k) {                            \
        cg_v##S v = {0};                                                                     \
        if (k == L) memcpy(&v, p, sizeof v); else memcpy(&v, p, k * sizeof(float));          \
        return v;                                                                            \
    }                                                                                        \
    ATTR static inline void cg_st##S(float *p, cg_v##S v, long k) {                          \
        if (k == L) memcpy(p, &v, sizeof v); else memcpy(p, &v, k * sizeof(float));          \
    }                                                                                        \
    ATTR static inline cg_v##S cg_exp##S(cg_v##S x) {                                        \
        const cg_v##S hi = (cg_v##S){0} + 88.0f, lo = (cg_v##S){0} - 87.0f;                  \
        cg_i##S m = x > hi;                                                                  \
        x = (cg_v##S)(((cg_i##S)hi & m) | ((cg_i##S)x & ~m));                                \
        m = x < lo;                                                                          \
        x = (cg_v##S)(((cg_i##S)lo & m) | ((cg_i##S)x & ~m));                                \
        cg_v##S n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;                  \
        cg_v##S r = x - n * 0.693359375f + n * 2.12194440e-4f;                               \
        cg_v##S p = r * 1.9875691500E-4f + 1.3981999507E-3f;                                 \
        p = p * r + 8.3334519073E-3f;                                                        \
        p = p * r + 4.1665795894E-2f;                                                        \
        p = p * r + 1.6666665459E-1f;                                                        \
        p = p * r + 5.0000001201E-1f;                                                        \
        p = p * r * r + r + 1.0f;                                                            \
        cg_i##S e = (__builtin_convertvector(n, cg_i##S) + 127) << 23;                       \
        return p * (cg_v##S)e;                                                               \
    }                                                                                        \
    ATTR static inline cg_v##S cg_sig##S(cg_v##S x) { return 1.0f / (1.0f + cg_exp##S(-x)); } \
    ATTR static inline cg_v##S cg_tanh##S(cg_v##S x) {                                       \
        return 1.0f - 2.0f / (1.0f + cg_exp##S(2.0f * x));                                   \
    }                                                                                        \
    ATTR static void cg_lstm_row##S(float *a, const float *xs, const float *cp, float *c,    \
                                    float *tc, float *h, long H) {                           \
        for (long j = 0; j < H; j += L) {                                                    \
            long k = H - j < L ? H - j : L;                                                  \
            cg_v##S i = cg_sig##S(cg_ld##S(a + j, k) + cg_ld##S(xs + j, k));                 \
            cg_v##S f = cg_sig##S(cg_ld##S(a + H + j, k) + cg_ld##S(xs + H + j, k));         \
            cg_v##S g = cg_tanh##S(cg_ld##S(a + 2 * H + j, k) + cg_ld##S(xs + 2 * H + j, k)); \
            cg_v##S o = cg_sig##S(cg_ld##S(a + 3 * H + j, k) + cg_ld##S(xs + 3 * H + j, k)); \
            cg_v##S cc = f * cg_ld##S(cp + j, k) + i * g;                                    \
            cg_v##S t = cg_tanh##S(cc);                                                      \
            cg_st##S(a + j, i, k);                                                           \
            cg_st##S(a + H + j, f, k);                                                       \
            cg_st##S(a + 2 * H + j, g, k);                                                   \
            cg_st##S(a + 3 * H + j, o, k);                                                   \
            cg_st##S(c + j, cc, k);                                                          \
            cg_st##S(tc + j, t, k);                                                          \
            cg_st##S(h + j, o * t, k);                                                       \
        }                                                                                    \
    }                                                                                        \
    ATTR static void cg_gru_row##S(float *a, const float *xs, const float *gh,               \
                                   const float *hp, float *ghn, float *h, long H) {          \
        for (long j = 0; j < H; j += L) {                                                    \
            long k = H - j < L ? H - j : L;                                                  \
            cg_v##S r = cg_sig##S(cg_ld##S(xs + j, k) + cg_ld##S(gh + j, k));                \
            cg_v##S z = cg_sig##S(cg_ld##S(xs + H + j, k) + cg_ld##S(gh + H + j, k));        \
            cg_v##S hn = cg_ld##S(gh + 2 * H + j, k);                                        \
            cg_v##S n = cg_tanh##S(cg_ld##S(xs + 2 * H + j, k) + r * hn);                    \
            cg_st##S(a + j, r, k);                                                           \
            cg_st##S(a + H + j, z, k);                                                       \
            cg_st##S(a + 2 * H + j, n, k);                                                   \
            cg_st##S(ghn + j, hn, k);                                                        \
            cg_st##S(h + j, n + z * (cg_ld##S(hp + j, k) - n), k);                           \
        }                                                                                    \
    }                                                                                        \
    ATTR static void cg_lstm_back_row##S(const float *a, const float *tc, const float *cp,     \
                                         const float *dy, float *dh, float *dc, float *d,    \
                                         long H) {                                           \
        const cg_v##S one = (cg_v##S){0} + 1.0f;                                             \
        for (long j = 0; j < H; j += L) {                                                    \
            long k = H - j < L ? H - j : L;                                                  \
            cg_v##S i = cg_ld##S(a + j, k), f = cg_ld##S(a + H + j, k);                      \
            cg_v##S g = cg_ld##S(a + 2 * H + j, k), o = cg_ld##S(a + 3 * H + j, k);          \
            cg_v##S t = cg_ld##S(tc + j, k);                                                 \
            cg_v##S dhh = cg_ld##S(dh + j, k) + cg_ld##S(dy + j, k);                         \
            cg_v##S dcc = cg_ld##S(dc + j, k) + dhh * o * (one - t * t);                     \
            cg_st##S(d + j, dcc * g * i * (one - i), k);                                     \
            cg_st##S(d + H + j, dcc * cg_ld##S(cp + j, k) * f * (one - f), k);               \
            cg_st##S(d + 2 * H + j, dcc * i * (one - g * g), k);                             \
            cg_st##S(d + 3 * H + j, dhh * t * o * (one - o), k);                             \
            cg_st##S(dc + j, dcc * f, k);                                                    \
        }                                                                                    \
    }                                                                                        \
    ATTR static inline float cg_hsum##S(cg_v##S v) {                                        \
        float t = 0;                                                                         \
        for (int q = 0; q < L; q++) t += v[q];                                               \
        return t;                                                                            \
    }                                                                                        \
    /* four rows at a time: four independent sums, so the adds do not wait on each other */  \
    ATTR static void cg_matvec##S(const float *w, const float *x, float *out, long G,       \
                                  long H) {                                                  \
        long g = 0;                                                                          \
        for (; g + 4 <= G; g += 4) {                                                         \
            const float *r0 = w + g * H, *r1 = r0 + H, *r2 = r1 + H, *r3 = r2 + H;           \
            cg_v##S s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, v;                               \
            long j = 0;                                                                      \
            for (; j + L <= H; j += L) {                                                     \
                v = cg_ld##S(x + j, L);                                                      \
                s0 += cg_ld##S(r0 + j, L) * v;                                               \
                s1 += cg_ld##S(r1 + j, L) * v;                                               \
                s2 += cg_ld##S(r2 + j, L) * v;                                               \
                s3 += cg_ld##S(r3 + j, L) * v;                                               \
            }                                                                                \
            if (j < H) {                                                                     \
                v = cg_ld##S(x + j, H - j);                                                  \
                s0 += cg_ld##S(r0 + j, H - j) * v;                                           \
                s1 += cg_ld##S(r1 + j, H - j) * v;                                           \
                s2 += cg_ld##S(r2 + j, H - j) * v;                                           \
                s3 += cg_ld##S(r3 + j, H - j) * v;                                           \
            }                                                                                \
            out[g] = cg_hsum##S(s0);                                                         \
            out[g + 1] = cg_hsum##S(s1);                                                     \
            out[g + 2] = cg_hsum##S(s2);                                                     \
            out[g + 3] = cg_hsum##S(s3);                                                     \
        }                                                                                    \
        for (; g < G; g++) {                                                                 \
            float t = 0;                                                                     \
            for (long j = 0; j < H; j++) t += w[g * H + j] * x[j];                           \
            out[g] = t;                                                                      \
        }                                                                                    \
    }

    CG_GATES(_4, 4, )
    CG_GATES(_8, 8, __attribute__((target("avx2,fma"))))

    static int cg_avx2 = -1;
    static inline int cg_use_avx2(void) {
        if (cg_avx2 < 0) {
            __builtin_cpu_init();
            cg_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        }
        return cg_avx2;
    }
    static void cg_lstm_row(float *a, const float *xs, const float *cp, float *c, float *tc,
                            float *h, long H) {
        if (cg_use_avx2()) cg_lstm_row_8(a, xs, cp, c, tc, h, H);
        else cg_lstm_row_4(a, xs, cp, c, tc, h, H);
    }
    static void cg_lstm_back_row(const float *a, const float *tc, const float *cp,
                                 const float *dy, float *dh, float *dc, float *d, long H) {
        if (cg_use_avx2()) cg_lstm_back_row_8(a, tc, cp, dy, dh, dc, d, H);
        else cg_lstm_back_row_4(a, tc, cp, dy, dh, dc, d, H);
    }
    /* out (G) = w (G, H) @ x (H): a batch of one needs no BLAS call per step */
    static void cg_matvec(const float *w, const float *x, float *out, long G, long H) {
        if (cg_use_avx2()) cg_matvec_8(w, x, out, G, H);
        else cg_matvec_4(w, x, out, G, H);
    }
    static void cg_gru_row(float *a, const float *xs, const float *gh, const float *hp,
                           float *ghn, float *h, long H) {
        if (cg_use_avx2()) cg_gru_row_8(a, xs, gh, hp, ghn, h, H);
        else cg_gru_row_4(a, xs, gh, hp, ghn, h, H);
    }
    """
    void cg_lstm_row(float *a, const float *xs, const float *cp, float *c, float *tc,
                     float *h, long H) noexcept nogil
    void cg_gru_row(float *a, const float *xs, const float *gh, const float *hp, float *ghn,
                    float *h, long H) noexcept nogil
    void cg_matvec(const float *w, const float *x, float *out, long G, long H) noexcept nogil
    void cg_lstm_back_row(const float *a, const float *tc, const float *cp, const float *dy,
                          float *dh, float *dc, float *d, long H) noexcept nogil


cdef inline double _sigmoid(double x) noexcept nogil:
    return 1.0 / (1.0 + exp(-x))


def lstm_forward_step(floating[:, ::1] a, floating[:, ::1] xs, floating[:, ::1] c_prev,
                      floating[:, ::1] c, floating[:, ::1] tc, floating[:, ::1] h):
    """a (B, 4H) holds h_prev @ W_hh.T on entry and the gate activations on return;
    xs (B, 4H) the step's input projection with both biases; writes c, tanh(c) and h."""
    cdef Py_ssize_t B = a.shape[0], H = c.shape[1], b, j
    cdef floating i, f, g, o, cc, t
    if a.shape[1] != 4 * H or xs.shape[0] != B or xs.shape[1] != 4 * H or \
            c_prev.shape[0] != B or c_prev.shape[1] != H or c.shape[0] != B or \
            tc.shape[0] != B or tc.shape[1] != H or h.shape[0] != B or h.shape[1] != H:
        raise ValueError("lstm_forward_step: expected a, xs (B, 4H) and c_prev, c, tc, h "
                         "(B, H)")
    with nogil:
        for b in range(B):
            if floating is float:
                cg_lstm_row(&a[b, 0], &xs[b, 0], &c_prev[b, 0], &c[b, 0], &tc[b, 0], &h[b, 0],
                            H)
                continue
            for j in range(H):
                i = _sigmoid(a[b, j] + xs[b, j])
                f = _sigmoid(a[b, H + j] + xs[b, H + j])
                g = tanh(a[b, 2 * H + j] + xs[b, 2 * H + j])
                o = _sigmoid(a[b, 3 * H + j] + xs[b, 3 * H + j])
                a[b, j] = i
                a[b, H + j] = f
                a[b, 2 * H + j] = g
                a[b, 3 * H + j] = o
                cc = f * c_prev[b, j] + i * g
                t = tanh(cc)
                c[b, j] = cc
                tc[b, j] = t
                h[b, j] = o * t


def lstm_backward_step(floating[:, ::1] a, floating[:, ::1] tc, floating[:, ::1] c_prev,
                       floating[:, ::1] dh, floating[:, ::1] dc, floating[:, ::1] d):
    """From the step's activations a (B, 4H), tanh(c) and c_prev, and the gradients dh, dc of
    h and c: writes the gate pre-activation gradients d (B, 4H) and turns dc into c_prev's."""
    cdef Py_ssize_t B = a.shape[0], H = tc.shape[1], b, j
    cdef floating i, f, g, o, t, dcc, dhh
    if a.shape[1] != 4 * H or d.shape[0] != B or d.shape[1] != 4 * H or \
            tc.shape[0] != B or c_prev.shape[0] != B or c_prev.shape[1] != H or \
            dh.shape[0] != B or dh.shape[1] != H or dc.shape[0] != B or dc.shape[1] != H:
        raise ValueError("lstm_backward_step: expected a, d (B, 4H) and tc, c_prev, dh, dc "
                         "(B, H)")
    with nogil:
        for b in range(B):
            for j in range(H):
                i = a[b, j]
                f = a[b, H + j]
                g = a[b, 2 * H + j]
                o = a[b, 3 * H + j]
                t = tc[b, j]
                dhh = dh[b, j]
                dcc = dc[b, j] + dhh * o * (1 - t * t)
                d[b, j] = dcc * g * i * (1 - i)
                d[b, H + j] = dcc * c_prev[b, j] * f * (1 - f)
                d[b, 2 * H + j] = dcc * i * (1 - g * g)
                d[b, 3 * H + j] = dhh * t * o * (1 - o)
                dc[b, j] = dcc * f


def gru_forward_step(floating[:, ::1] a, floating[:, ::1] xs, floating[:, ::1] gh,
                     floating[:, ::1] h_prev, floating[:, ::1] ghn, floating[:, ::1] h):
    """xs (B, 3H): the input projection with b_ih; gh (B, 3H): h_prev @ W_hh.T + b_hh.
    Writes the activations r, z, n into a, gh's n part into ghn (B, H) and h."""
    cdef Py_ssize_t B = a.shape[0], H = h.shape[1], b, j
    cdef floating r, z, n
    if a.shape[1] != 3 * H or xs.shape[0] != B or xs.shape[1] != 3 * H or \
            gh.shape[0] != B or gh.shape[1] != 3 * H or h_prev.shape[0] != B or \
            h_prev.shape[1] != H or ghn.shape[0] != B or ghn.shape[1] != H or h.shape[0] != B:
        raise ValueError("gru_forward_step: expected a, xs, gh (B, 3H) and h_prev, ghn, h "
                         "(B, H)")
    with nogil:
        for b in range(B):
            if floating is float:
                cg_gru_row(&a[b, 0], &xs[b, 0], &gh[b, 0], &h_prev[b, 0], &ghn[b, 0], &h[b, 0],
                           H)
                continue
            for j in range(H):
                r = _sigmoid(xs[b, j] + gh[b, j])
                z = _sigmoid(xs[b, H + j] + gh[b, H + j])
                n = tanh(xs[b, 2 * H + j] + r * gh[b, 2 * H + j])
                a[b, j] = r
                a[b, H + j] = z
                a[b, 2 * H + j] = n
                ghn[b, j] = gh[b, 2 * H + j]
                h[b, j] = n + z * (h_prev[b, j] - n)


def gru_backward_step(floating[:, ::1] a, floating[:, ::1] ghn, floating[:, ::1] h_prev,
                      floating[:, ::1] dh, floating[:, ::1] dgi, floating[:, ::1] dgh):
    """Writes the gradients of the input and hidden projections dgi, dgh (B, 3H) and turns
    dh into its direct part for h_prev (dh * z; the caller adds dgh @ W_hh)."""
    cdef Py_ssize_t B = a.shape[0], H = dh.shape[1], b, j
    cdef floating r, z, n, d, dn, dr, dz
    if a.shape[1] != 3 * H or dgi.shape[0] != B or dgi.shape[1] != 3 * H or \
            dgh.shape[0] != B or dgh.shape[1] != 3 * H or ghn.shape[0] != B or \
            ghn.shape[1] != H or h_prev.shape[0] != B or h_prev.shape[1] != H or \
            dh.shape[0] != B:
        raise ValueError("gru_backward_step: expected a, dgi, dgh (B, 3H) and ghn, h_prev, dh "
                         "(B, H)")
    with nogil:
        for b in range(B):
            for j in range(H):
                r = a[b, j]
                z = a[b, H + j]
                n = a[b, 2 * H + j]
                d = dh[b, j]
                dn = d * (1 - z) * (1 - n * n)
                dz = d * (h_prev[b, j] - n) * z * (1 - z)
                dr = dn * ghn[b, j] * r * (1 - r)
                dgi[b, j] = dr
                dgi[b, H + j] = dz
                dgi[b, 2 * H + j] = dn
                dgh[b, j] = dr
                dgh[b, H + j] = dz
                dgh[b, 2 * H + j] = dn * r
                dh[b, j] = d * z


cdef class LSTMSteps:
    """The float32 LSTM gates step by step over whole (T, B, .) buffers, taken once per
    sequence: at batch 1 a call per step costs more than its gates, so `forward(s)` takes only
    the step. acts, xs (T, B, 4H); cs, hs (T + 1, B, H); tcs (T, B, H)."""

    cdef float[:, :, ::1] acts, xs, cs, tcs, hs
    cdef Py_ssize_t T, B, H

    def __init__(self, float[:, :, ::1] acts, float[:, :, ::1] xs, float[:, :, ::1] cs,
                 float[:, :, ::1] tcs, float[:, :, ::1] hs):
        T, B, H = tcs.shape[0], tcs.shape[1], tcs.shape[2]
        for name, got, shape in (
                ("acts", (acts.shape[0], acts.shape[1], acts.shape[2]), (T, B, 4 * H)),
                ("xs", (xs.shape[0], xs.shape[1], xs.shape[2]), (T, B, 4 * H)),
                ("cs", (cs.shape[0], cs.shape[1], cs.shape[2]), (T + 1, B, H)),
                ("hs", (hs.shape[0], hs.shape[1], hs.shape[2]), (T + 1, B, H))):
            if got != shape:
                raise ValueError(f"LSTMSteps: '{name}' must have shape {shape}, got {got}")
        self.acts, self.xs, self.cs, self.tcs, self.hs = acts, xs, cs, tcs, hs
        self.T, self.B, self.H = T, B, H

    def forward(self, Py_ssize_t s):
        """acts[s] holds hs[s] @ W_hh.T: the gates of step s, then cs[s + 1], hs[s + 1]."""
        cdef Py_ssize_t b
        if not 0 <= s < self.T:
            raise IndexError(f"LSTMSteps.forward: step {s} is outside [0, {self.T})")
        with nogil:
            for b in range(self.B):
                cg_lstm_row(&self.acts[s, b, 0], &self.xs[s, b, 0], &self.cs[s, b, 0],
                            &self.cs[s + 1, b, 0], &self.tcs[s, b, 0], &self.hs[s + 1, b, 0],
                            self.H)

    def run(self, float[:, ::1] w_hh):
        """All steps of a batch of one, each `acts[s] = W_hh @ hs[s]` then its gates, without
        returning to Python (at batch 1 a BLAS call costs more than its product)."""
        cdef Py_ssize_t s, H = self.H
        if self.B != 1 or w_hh.shape[0] != 4 * H or w_hh.shape[1] != H:
            raise ValueError(f"LSTMSteps.run: needs batch 1 and w_hh of shape {(4 * H, H)}, "
                             f"got batch {self.B} and {(w_hh.shape[0], w_hh.shape[1])}")
        with nogil:
            for s in range(self.T):
                cg_matvec(&w_hh[0, 0], &self.hs[s, 0, 0], &self.acts[s, 0, 0], 4 * H, H)
                cg_lstm_row(&self.acts[s, 0, 0], &self.xs[s, 0, 0], &self.cs[s, 0, 0],
                            &self.cs[s + 1, 0, 0], &self.tcs[s, 0, 0], &self.hs[s + 1, 0, 0], H)


def gru_run(float[:, :, ::1] acts, float[:, :, ::1] xs, float[:, :, ::1] ghs,
            float[:, :, ::1] ghn, float[:, :, ::1] hs, float[:, ::1] w_hh, b_hh):
    """All steps of a float32 GRU over a batch of one without returning to Python: each
    `ghs[s] = W_hh @ hs[s] + b_hh` (b_hh (3H,) or None), then the gates of `gru_forward_step`.
    acts, xs, ghs (T, 1, 3H); ghn (T, 1, H); hs (T + 1, 1, H)."""
    cdef Py_ssize_t T = acts.shape[0], H = hs.shape[2], s, j
    cdef float[::1] b = None if b_hh is None else b_hh
    shapes = {"acts": ((acts.shape[0], acts.shape[1], acts.shape[2]), (T, 1, 3 * H)),
              "xs": ((xs.shape[0], xs.shape[1], xs.shape[2]), (T, 1, 3 * H)),
              "ghs": ((ghs.shape[0], ghs.shape[1], ghs.shape[2]), (T, 1, 3 * H)),
              "ghn": ((ghn.shape[0], ghn.shape[1], ghn.shape[2]), (T, 1, H)),
              "hs": ((hs.shape[0], hs.shape[1], hs.shape[2]), (T + 1, 1, H)),
              "w_hh": ((w_hh.shape[0], w_hh.shape[1]), (3 * H, H))}
    for name, (got, expected) in shapes.items():
        if got != expected:
            raise ValueError(f"gru_run: '{name}' must have shape {expected}, got {got}")
    if b is not None and b.shape[0] != 3 * H:
        raise ValueError(f"gru_run: 'b_hh' must have shape {(3 * H,)}, got {(b.shape[0],)}")
    with nogil:
        for s in range(T):
            cg_matvec(&w_hh[0, 0], &hs[s, 0, 0], &ghs[s, 0, 0], 3 * H, H)
            if b is not None:
                for j in range(3 * H):
                    ghs[s, 0, j] += b[j]
            cg_gru_row(&acts[s, 0, 0], &xs[s, 0, 0], &ghs[s, 0, 0], &hs[s, 0, 0], &ghn[s, 0, 0],
                       &hs[s + 1, 0, 0], H)


cdef class LSTMBackSteps:
    """The float32 LSTM backward gates step by step over whole buffers taken once (the
    forward's acts, tcs, cs; the output gradients dys (T, B, H) in step order; the gate
    gradients dg (T, B, 4H) written) with the running gradients dh, dc (B, H)."""

    cdef float[:, :, ::1] acts, tcs, cs, dys, dg
    cdef float[:, ::1] dh, dc
    cdef Py_ssize_t T, B, H

    def __init__(self, float[:, :, ::1] acts, float[:, :, ::1] tcs, float[:, :, ::1] cs,
                 float[:, :, ::1] dys, float[:, :, ::1] dg, float[:, ::1] dh,
                 float[:, ::1] dc):
        T, B, H = tcs.shape[0], tcs.shape[1], tcs.shape[2]
        for name, got, shape in (
                ("acts", (acts.shape[0], acts.shape[1], acts.shape[2]), (T, B, 4 * H)),
                ("cs", (cs.shape[0], cs.shape[1], cs.shape[2]), (T + 1, B, H)),
                ("dys", (dys.shape[0], dys.shape[1], dys.shape[2]), (T, B, H)),
                ("dg", (dg.shape[0], dg.shape[1], dg.shape[2]), (T, B, 4 * H)),
                ("dh", (dh.shape[0], dh.shape[1]), (B, H)),
                ("dc", (dc.shape[0], dc.shape[1]), (B, H))):
            if got != shape:
                raise ValueError(f"LSTMBackSteps: '{name}' must have shape {shape}, got {got}")
        self.acts, self.tcs, self.cs, self.dys, self.dg = acts, tcs, cs, dys, dg
        self.dh, self.dc = dh, dc
        self.T, self.B, self.H = T, B, H

    def backward(self, Py_ssize_t s):
        """dg[s] from dh + dys[s] and dc; dc becomes c[s]'s gradient (the caller sets
        dh = dg[s] @ W_hh)."""
        cdef Py_ssize_t b
        if not 0 <= s < self.T:
            raise IndexError(f"LSTMBackSteps.backward: step {s} is outside [0, {self.T})")
        with nogil:
            for b in range(self.B):
                cg_lstm_back_row(&self.acts[s, b, 0], &self.tcs[s, b, 0], &self.cs[s, b, 0],
                                 &self.dys[s, b, 0], &self.dh[b, 0], &self.dc[b, 0],
                                 &self.dg[s, b, 0], self.H)
