"""The elementwise part of one LSTM or GRU time step, forward and backward, in one pass.

numpy spends about ten passes (and as many calls) per step on the gates; at batch 1 the calls
dominate and at batch 32 the passes do. The recurrent matrix product stays with numpy's BLAS.
Gate orders are MindSpore's: LSTM i, f, g, o; GRU r, z, n.
"""

from cython cimport floating
from libc.math cimport exp, tanh

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* float32 gates four lanes at a time (GCC vector extensions, SSE2 at least): exp as
       Cephes' expf (about 2 ulp) without libm calls or branches. glibc's expf and tanhf are
       scalar calls, and the gates spent most of their time in them. */
    typedef float cg_v4 __attribute__((vector_size(16)));
    typedef int32_t cg_i4 __attribute__((vector_size(16)));
    static inline cg_v4 cg_ld(const float *p, long k) {
        cg_v4 v = {0, 0, 0, 0};
        if (k == 4) memcpy(&v, p, sizeof v); else memcpy(&v, p, k * sizeof(float));
        return v;
    }
    static inline void cg_st(float *p, cg_v4 v, long k) {
        if (k == 4) memcpy(p, &v, sizeof v); else memcpy(p, &v, k * sizeof(float));
    }
    static inline cg_v4 cg_sel(cg_i4 m, cg_v4 a, cg_v4 b) {
        return (cg_v4)(((cg_i4)a & m) | ((cg_i4)b & ~m));
    }
    static inline cg_v4 cg_exp(cg_v4 x) {
        const cg_v4 hi = {88.f, 88.f, 88.f, 88.f}, lo = {-87.f, -87.f, -87.f, -87.f};
        x = cg_sel(x > hi, hi, x);  /* NaN stays NaN: both comparisons are false */
        x = cg_sel(x < lo, lo, x);
        cg_v4 n = (x * 1.44269504088896341f + 12582912.0f) - 12582912.0f;  /* round */
        cg_v4 r = x - n * 0.693359375f + n * 2.12194440e-4f;
        cg_v4 p = r * 1.9875691500E-4f + 1.3981999507E-3f;
        p = p * r + 8.3334519073E-3f;
        p = p * r + 4.1665795894E-2f;
        p = p * r + 1.6666665459E-1f;
        p = p * r + 5.0000001201E-1f;
        p = p * r * r + r + 1.0f;
        cg_i4 e = (__builtin_convertvector(n, cg_i4) + 127) << 23;
        return p * (cg_v4)e;
    }
    static inline cg_v4 cg_sig(cg_v4 x) { return 1.0f / (1.0f + cg_exp(-x)); }
    static inline cg_v4 cg_tanh(cg_v4 x) { return 1.0f - 2.0f / (1.0f + cg_exp(2.0f * x)); }

    static void cg_lstm_row(float *a, const float *xs, const float *cp, float *c, float *tc,
                            float *h, long H) {
        for (long j = 0; j < H; j += 4) {
            long k = H - j < 4 ? H - j : 4;
            cg_v4 i = cg_sig(cg_ld(a + j, k) + cg_ld(xs + j, k));
            cg_v4 f = cg_sig(cg_ld(a + H + j, k) + cg_ld(xs + H + j, k));
            cg_v4 g = cg_tanh(cg_ld(a + 2 * H + j, k) + cg_ld(xs + 2 * H + j, k));
            cg_v4 o = cg_sig(cg_ld(a + 3 * H + j, k) + cg_ld(xs + 3 * H + j, k));
            cg_v4 cc = f * cg_ld(cp + j, k) + i * g;
            cg_v4 t = cg_tanh(cc);
            cg_st(a + j, i, k);
            cg_st(a + H + j, f, k);
            cg_st(a + 2 * H + j, g, k);
            cg_st(a + 3 * H + j, o, k);
            cg_st(c + j, cc, k);
            cg_st(tc + j, t, k);
            cg_st(h + j, o * t, k);
        }
    }

    static void cg_gru_row(float *a, const float *xs, const float *gh, const float *hp,
                           float *ghn, float *h, long H) {
        for (long j = 0; j < H; j += 4) {
            long k = H - j < 4 ? H - j : 4;
            cg_v4 r = cg_sig(cg_ld(xs + j, k) + cg_ld(gh + j, k));
            cg_v4 z = cg_sig(cg_ld(xs + H + j, k) + cg_ld(gh + H + j, k));
            cg_v4 hn = cg_ld(gh + 2 * H + j, k);
            cg_v4 n = cg_tanh(cg_ld(xs + 2 * H + j, k) + r * hn);
            cg_st(a + j, r, k);
            cg_st(a + H + j, z, k);
            cg_st(a + 2 * H + j, n, k);
            cg_st(ghn + j, hn, k);
            cg_st(h + j, n + z * (cg_ld(hp + j, k) - n), k);
        }
    }
    """
    void cg_lstm_row(float *a, const float *xs, const float *cp, float *c, float *tc,
                     float *h, long H) noexcept nogil
    void cg_gru_row(float *a, const float *xs, const float *gh, const float *hp, float *ghn,
                    float *h, long H) noexcept nogil


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
