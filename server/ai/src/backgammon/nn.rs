//! The Expert's neural network: one hidden layer of sigmoid units, five
//! sigmoid outputs, trained by self-play with TD(λ) (Tesauro's TD-Gammon).
//!
//! **Outputs** (always for the side on roll of the evaluated position,
//! cumulative): P(win), P(gammon win), P(backgammon win), P(gammon loss),
//! P(backgammon loss).
//!
//! **Inputs** ([`N_INPUTS`]): the position is always encoded from the side on
//! roll, so the "turn" unit of the original encoding is implicit. For each
//! side and each of its own points 1..=24, four units: `n >= 1`, `n >= 2`,
//! `n >= 3`, `(n - 3) / 2` (Tesauro). Then per side: bar / 2, off / 15, pip
//! count / 167, longest prime / 6, home-board points made / 6, and the number
//! of rolls (of 36) that hit one of the other side's blots (a simplified
//! shot count). Then a race flag and a constant bias unit: the first
//! [`BASE_INPUTS`], all a network of the first version sees. Then, per side,
//! four of gnubg's hand-crafted contact features ([`blockade`]): the escapes
//! of its rearmost checker, how well the other side contains it, its back
//! anchor, and the pips it must move to break contact ([`CONTACT_INPUTS`]
//! in all). Last, per side, seven more: how its blots are exposed
//! ([`exposure`]: one hit, two hits, the pips lost), how closed the other
//! side's home board is to it, its anchors there, its frontmost anchor and
//! its outfield pips (its timing). The contact features are zero in a race.
//!
//! **Weights file** (little endian): magic `TBLBGNN\0`, version `u32` (1),
//! inputs, hidden, outputs (`u32` each), games trained (`u64`), then `f32`
//! weights (input→hidden, input-major, the bias being the last input;
//! hidden→output, output-major, with a bias column), then an FNV-1a 64
//! checksum of everything before it. [`Network::from_bytes`] rejects any
//! mismatch with a [`WeightsError`]; nothing falls back silently.

// Index loops mirror the maths of the encoding and of back-propagation.
#![allow(clippy::needless_range_loop)]

use std::path::Path;

use tabula_shared::backgammon::Position;

use super::{blockade, exposure};

/// Number of network outputs.
pub const N_OUT: usize = 5;
/// Five cumulative probabilities for the side on roll: win, gammon win,
/// backgammon win, gammon loss, backgammon loss.
pub type Probs = [f32; N_OUT];
/// Number of input units (including the constant bias unit).
pub const N_INPUTS: usize = CONTACT_INPUTS + 2 * 7;
/// Input units of a network with the first four contact features per side
/// only.
pub const CONTACT_INPUTS: usize = BASE_INPUTS + 2 * 4;
/// Input units of a network without the contact features (the first
/// version): it reads the first `BASE_INPUTS` units only.
pub const BASE_INPUTS: usize = 206;
/// Largest hidden layer the evaluator supports.
pub const MAX_HIDDEN: usize = 256;
const BIAS_INPUT: usize = BASE_INPUTS - 1;
const MAGIC: &[u8; 8] = b"TBLBGNN\0";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 * 4 + 8;

/// Why a weights file was rejected.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {path}: {source}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Shorter than a header plus checksum.
    #[error("weights file truncated ({0} bytes)")]
    Truncated(usize),
    /// Not a Tabula backgammon network.
    #[error("not a Tabula backgammon weights file (bad magic)")]
    BadMagic,
    /// A format version this build does not read.
    #[error("unsupported weights version {0} (expected {VERSION})")]
    BadVersion(u32),
    /// Shape not supported by this build, or size inconsistent with it.
    #[error("bad network shape {inputs}x{hidden}x{outputs} for a {len}-byte file")]
    BadShape {
        /// Inputs in the header.
        inputs: u32,
        /// Hidden units in the header.
        hidden: u32,
        /// Outputs in the header.
        outputs: u32,
        /// File length.
        len: usize,
    },
    /// The checksum does not match the contents.
    #[error("weights checksum mismatch (file corrupt)")]
    Checksum,
    /// A weight is NaN or infinite.
    #[error("weights contain a non-finite value")]
    NonFinite,
}

/// Sparse inputs: the non-zero units of an encoded position.
#[derive(Clone)]
pub struct Inputs {
    idx: [u16; 192],
    val: [f32; 192],
    len: usize,
}

impl Inputs {
    fn new() -> Inputs {
        Inputs {
            idx: [0; 192],
            val: [0.0; 192],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, i: usize, v: f32) {
        if v != 0.0 && self.len < self.idx.len() {
            self.idx[self.len] = i as u16;
            self.val[self.len] = v;
            self.len += 1;
        }
    }

    /// The non-zero `(index, value)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        (0..self.len).map(|k| (usize::from(self.idx[k]), self.val[k]))
    }
}

/// Checker counts of one side in its own numbering: `c[k]` for points
/// 1..=24, `c[25]` = bar.
fn side_counts(pos: &Position) -> ([u8; 26], [u8; 26]) {
    let p = pos.pips();
    let mut x = [0u8; 26];
    let mut o = [0u8; 26];
    for k in 1..=25 {
        x[k] = p[k].max(0) as u8;
        o[k] = (-p[25 - k]).max(0) as u8;
    }
    (x, o)
}

fn longest_prime(c: &[u8; 26]) -> u32 {
    let (mut best, mut run) = (0u32, 0u32);
    for &n in &c[1..=24] {
        if n >= 2 {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Encodes `pos` (side on roll = mover) as sparse network inputs.
pub fn encode(pos: &Position) -> Inputs {
    encode_first(pos, N_INPUTS)
}

/// The first `inputs` units of [`encode`] (the contact features cost time
/// a network that does not read them need not spend).
fn encode_first(pos: &Position, inputs: usize) -> Inputs {
    let mut inp = Inputs::new();
    let (x, o) = side_counts(pos);
    for (s, c) in [&x, &o].into_iter().enumerate() {
        let base = s * 96;
        for k in 1..=24 {
            let n = c[k];
            if n == 0 {
                continue;
            }
            let b = base + (k - 1) * 4;
            inp.push(b, 1.0);
            if n >= 2 {
                inp.push(b + 1, 1.0);
            }
            if n >= 3 {
                inp.push(b + 2, 1.0);
            }
            if n > 3 {
                inp.push(b + 3, f32::from(n - 3) / 2.0);
            }
        }
    }
    let (xp, op) = pos.pip_count();
    for (s, c) in [&x, &o].into_iter().enumerate() {
        inp.push(192 + s, f32::from(c[25]) / 2.0);
        let pip = if s == 0 { xp } else { op };
        inp.push(196 + s, pip as f32 / 167.0);
        inp.push(198 + s, longest_prime(c) as f32 / 6.0);
        let home = c[1..=6].iter().filter(|&&n| n >= 2).count();
        inp.push(200 + s, home as f32 / 6.0);
    }
    inp.push(194, f32::from(pos.x_off()) / 15.0);
    inp.push(195, f32::from(pos.o_off()) / 15.0);
    let race = pos.is_race();
    // Each side's exposure to the other's hits: its count of hitting rolls
    // is the shot count every network reads.
    let exposures = [exposure::exposure(&x, &o), exposure::exposure(&o, &x)];
    let (mine, theirs) = (exposures[1].hit, exposures[0].hit);
    inp.push(202, mine);
    inp.push(203, theirs);
    inp.push(204, if race { 1.0 } else { 0.0 });
    inp.push(BIAS_INPUT, 1.0);
    if inputs > BASE_INPUTS && !race {
        for (s, (me, them)) in [(&x, &o), (&o, &x)].into_iter().enumerate() {
            let f = blockade::features(me, them);
            let base = BASE_INPUTS + 4 * s;
            inp.push(base, f.back_escapes);
            inp.push(base + 1, f.contained);
            inp.push(base + 2, f.back_anchor);
            inp.push(base + 3, f.to_break_contact);
            if inputs > CONTACT_INPUTS {
                let e = exposures[s];
                let base = CONTACT_INPUTS + 7 * s;
                inp.push(base, e.hit);
                inp.push(base + 1, e.double_hit);
                inp.push(base + 2, e.pip_loss);
                inp.push(base + 3, f.closed);
                inp.push(base + 4, f.home_anchors);
                inp.push(base + 5, f.forward_anchor);
                inp.push(base + 6, f.outfield_pips);
            }
        }
    }
    inp
}

/// Hidden units summed together in [`Network::forward`].
const BLOCK: usize = 64;

/// Lanes of the partial sums in [`dot`].
const LANES: usize = 8;

/// `a · b` over their common length, in [`LANES`] partial sums added at
/// the end, so that the products can be summed in parallel lanes.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut lanes = [0f32; LANES];
    let mut ac = a.chunks_exact(LANES);
    let mut bc = b.chunks_exact(LANES);
    for (x, y) in (&mut ac).zip(&mut bc) {
        for k in 0..LANES {
            lanes[k] += x[k] * y[k];
        }
    }
    let mut sum = 0.0;
    for (x, y) in ac.remainder().iter().zip(bc.remainder()) {
        sum += x * y;
    }
    lanes.iter().sum::<f32>() + sum
}

#[inline]
fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z.clamp(-40.0, 40.0)).exp())
}

/// [`sigmoid`] with [`exp_lanes`]: within 2e-7 of it, and a loop of them
/// is compiled to vector instructions.
#[inline(always)]
fn sigmoid_lanes(z: f32) -> f32 {
    1.0 / (1.0 + exp_lanes(-z.clamp(-40.0, 40.0)))
}

/// `e^x` for `|x| <= 40` without a library call, so that a loop of them
/// vectorises: `x = n ln 2 + r` with `|r| <= ln 2 / 2`, `e^r` by Cephes'
/// degree-5 polynomial for `expf` (relative error about 1e-7), and `2^n`
/// put straight into the exponent bits.
#[inline(always)]
fn exp_lanes(x: f32) -> f32 {
    // Adding and taking away 1.5 * 2^23 rounds to the nearest integer.
    const ROUND: f32 = 12_582_912.0;
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    // ln 2 split in two so that `n * LN2_HI` is exact.
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = ((((1.987_569_1e-4 * r + 1.398_199_9e-3) * r + 8.333_452e-3) * r + 4.166_579_6e-2) * r
        + 1.666_666_5e-1)
        * r
        + 0.5;
    let er = p * r * r + r + 1.0;
    er * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

/// The network: its inputs (the first [`BASE_INPUTS`] or all [`N_INPUTS`])
/// → `hidden` sigmoid units → 5 sigmoid outputs.
#[derive(Clone)]
pub struct Network {
    /// Input units read: [`BASE_INPUTS`], [`CONTACT_INPUTS`] or [`N_INPUTS`].
    inputs: usize,
    hidden: usize,
    /// Input→hidden weights, `w1[i * hidden + j]`.
    w1: Vec<f32>,
    /// Hidden→output weights, `w2[o * (hidden + 1) + j]`, `j == hidden` is
    /// the bias.
    w2: Vec<f32>,
    /// Self-play games this network was trained on.
    pub games: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("inputs", &self.inputs)
            .field("hidden", &self.hidden)
            .field("games", &self.games)
            .finish()
    }
}

/// Hidden activations of one forward pass (kept for training).
#[derive(Clone)]
pub struct Activations {
    h: [f32; MAX_HIDDEN],
    /// The outputs.
    pub out: Probs,
}

impl Activations {
    /// The hidden units' activations; the first [`Network::hidden`] are
    /// the network's.
    pub fn hidden(&self) -> &[f32; MAX_HIDDEN] {
        &self.h
    }
}

impl Network {
    /// A fresh network with small random weights (reproducible for `seed`).
    pub fn random(hidden: usize, seed: u64) -> Network {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let mut rng = crate::rng::Rng::new(seed);
        let mut r = |scale: f64| ((rng.unit() * 2.0 - 1.0) * scale) as f32;
        let w1 = (0..N_INPUTS * hidden).map(|_| r(0.1)).collect();
        let w2 = (0..N_OUT * (hidden + 1)).map(|_| r(0.1)).collect();
        Network {
            inputs: N_INPUTS,
            hidden,
            w1,
            w2,
            games: 0,
        }
    }

    /// Input units read.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Forward pass on encoded inputs. On x86-64 CPUs with AVX2 the same
    /// loops are compiled for eight lanes instead of SSE2's four: the sums
    /// are element by element in the same order (no fused multiply-add), so
    /// both give the same outputs bit for bit.
    pub fn forward(&self, inp: &Inputs) -> Activations {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            return unsafe { self.forward_avx2(inp) };
        }
        self.forward_portable(inp)
    }

    /// [`Network::forward`] compiled with AVX2 enabled.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn forward_avx2(&self, inp: &Inputs) -> Activations {
        self.forward_portable(inp)
    }

    /// The forward pass, inlined into each caller so that it is compiled
    /// for the caller's target features.
    #[inline(always)]
    fn forward_portable(&self, inp: &Inputs) -> Activations {
        let hn = self.hidden;
        let mut act = Activations {
            h: [0.0; MAX_HIDDEN],
            out: [0.0; N_OUT],
        };
        // The hidden sums a block of units at a time, so that a block's
        // sums stay in registers while every input's row adds to them.
        // Each unit still adds the inputs in order (`1.0 * w == w`), so the
        // sums do not depend on the block size.
        let h = &mut act.h[..hn];
        let mut blocks = h.chunks_exact_mut(BLOCK);
        let mut start = 0;
        for block in &mut blocks {
            let mut acc = [0f32; BLOCK];
            for (i, v) in inp.iter() {
                if i >= self.inputs {
                    continue;
                }
                let row = &self.w1[i * hn + start..i * hn + start + BLOCK];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += v * w;
                }
            }
            block.copy_from_slice(&acc);
            start += BLOCK;
        }
        let rest = blocks.into_remainder();
        for (i, v) in inp.iter() {
            if i >= self.inputs {
                continue;
            }
            let row = &self.w1[i * hn + start..(i + 1) * hn];
            for (a, w) in rest.iter_mut().zip(row) {
                *a += v * w;
            }
        }
        for a in h.iter_mut() {
            *a = sigmoid_lanes(*a);
        }
        for o in 0..N_OUT {
            let row = &self.w2[o * (hn + 1)..(o + 1) * (hn + 1)];
            act.out[o] = sigmoid(row[hn] + dot(h, &row[..hn]));
        }
        act
    }

    /// One gradient step of the squared error: moves the outputs of the
    /// forward pass `act` on `inp` towards `act.out + err`, with learning
    /// rate `alpha` (back-propagation through the sigmoids).
    pub fn step(&mut self, inp: &Inputs, act: &Activations, err: &Probs, alpha: f32) {
        let hn = self.hidden;
        let h = &act.h;
        let mut gz = [0f32; N_OUT];
        for o in 0..N_OUT {
            let y = act.out[o];
            gz[o] = alpha * err[o] * y * (1.0 - y);
        }
        let mut gh = [0f32; MAX_HIDDEN];
        for o in 0..N_OUT {
            let row = &mut self.w2[o * (hn + 1)..(o + 1) * (hn + 1)];
            for j in 0..hn {
                gh[j] += gz[o] * row[j];
                row[j] += gz[o] * h[j];
            }
            row[hn] += gz[o];
        }
        for j in 0..hn {
            gh[j] *= h[j] * (1.0 - h[j]);
        }
        for (i, v) in inp.iter() {
            if i >= self.inputs {
                continue;
            }
            let row = &mut self.w1[i * hn..(i + 1) * hn];
            for (w, g) in row.iter_mut().zip(&gh[..hn]) {
                *w += v * g;
            }
        }
    }

    /// Adds the gradient of the cross-entropy between the outputs of the
    /// forward pass `act` on `inp` and the probabilities `target` (each
    /// output a separate two-way event) to `g1` and `g2`, laid out as the
    /// weights are. At an output's logit this gradient is `out - target`:
    /// unlike the squared error through the sigmoid, it does not vanish
    /// when an output is confidently wrong.
    pub fn add_gradient(
        &self,
        inp: &Inputs,
        act: &Activations,
        target: &Probs,
        g1: &mut [f32],
        g2: &mut [f32],
    ) {
        let hn = self.hidden;
        let h = &act.h;
        let mut gh = [0f32; MAX_HIDDEN];
        for o in 0..N_OUT {
            let gz = act.out[o] - target[o];
            let row = &self.w2[o * (hn + 1)..(o + 1) * (hn + 1)];
            let grow = &mut g2[o * (hn + 1)..(o + 1) * (hn + 1)];
            for j in 0..hn {
                gh[j] += gz * row[j];
                grow[j] += gz * h[j];
            }
            grow[hn] += gz;
        }
        for j in 0..hn {
            gh[j] *= h[j] * (1.0 - h[j]);
        }
        for (i, v) in inp.iter() {
            if i >= self.inputs {
                continue;
            }
            let grow = &mut g1[i * hn..(i + 1) * hn];
            for (g, d) in grow.iter_mut().zip(&gh[..hn]) {
                *g += v * d;
            }
        }
    }

    /// The weights, input→hidden then hidden→output (see the fields), for
    /// an optimiser to update in place.
    pub fn weights_mut(&mut self) -> (&mut [f32], &mut [f32]) {
        (&mut self.w1, &mut self.w2)
    }

    /// This network reading every input, with `hidden` hidden units: the
    /// first ones are this network's, the others start with small random
    /// input weights (from `seed`) and no weight to the outputs, and the
    /// inputs it did not read start with no weight, so the function is
    /// unchanged.
    pub fn widened(&self, hidden: usize, seed: u64) -> Network {
        let hidden = hidden.clamp(self.hidden, MAX_HIDDEN);
        let mut wide = Network::random(hidden, seed);
        let (hn, wn) = (self.hidden, hidden);
        for i in self.inputs..N_INPUTS {
            wide.w1[i * wn..i * wn + hn].fill(0.0);
        }
        for i in 0..self.inputs {
            wide.w1[i * wn..i * wn + hn].copy_from_slice(&self.w1[i * hn..(i + 1) * hn]);
        }
        for o in 0..N_OUT {
            let row = &mut wide.w2[o * (wn + 1)..(o + 1) * (wn + 1)];
            row.fill(0.0);
            row[..hn].copy_from_slice(&self.w2[o * (hn + 1)..o * (hn + 1) + hn]);
            row[wn] = self.w2[o * (hn + 1) + hn];
        }
        wide.games = self.games;
        wide
    }

    /// Raw outputs for the side on roll of `pos` (not for finished games).
    pub fn eval(&self, pos: &Position) -> Probs {
        self.forward(&encode_first(pos, self.inputs)).out
    }

    /// Serialises to the versioned weights format (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER + 4 * (self.w1.len() + self.w2.len()) + 8);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        b.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        b.extend_from_slice(&(N_OUT as u32).to_le_bytes());
        b.extend_from_slice(&self.games.to_le_bytes());
        for w in self.w1.iter().chain(&self.w2) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Parses and checks a weights file (magic, version, shape, length,
    /// checksum, finite values).
    pub fn from_bytes(b: &[u8]) -> Result<Network, WeightsError> {
        if b.len() < HEADER + 8 {
            return Err(WeightsError::Truncated(b.len()));
        }
        if &b[..8] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(WeightsError::BadVersion(version));
        }
        let (inputs, hidden, outputs) = (u32_at(12), u32_at(16), u32_at(20));
        let h = hidden as usize;
        let n_in = inputs as usize;
        let n_w = (n_in * h) + N_OUT * (h + 1);
        if ![BASE_INPUTS, CONTACT_INPUTS, N_INPUTS].contains(&n_in)
            || outputs as usize != N_OUT
            || h == 0
            || h > MAX_HIDDEN
            || b.len() != HEADER + 4 * n_w + 8
        {
            return Err(WeightsError::BadShape {
                inputs,
                hidden,
                outputs,
                len: b.len(),
            });
        }
        let body = b.len() - 8;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&b[body..]);
        if fnv1a(&b[..body]) != u64::from_le_bytes(sum) {
            return Err(WeightsError::Checksum);
        }
        let mut games = [0u8; 8];
        games.copy_from_slice(&b[24..32]);
        let mut ws = Vec::with_capacity(n_w);
        for c in b[HEADER..body].chunks_exact(4) {
            let w = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            if !w.is_finite() {
                return Err(WeightsError::NonFinite);
            }
            ws.push(w);
        }
        let w2 = ws.split_off(n_in * h);
        Ok(Network {
            inputs: n_in,
            hidden: h,
            w1: ws,
            w2,
            games: u64::from_le_bytes(games),
        })
    }

    /// Loads and checks a weights file.
    pub fn load(path: &Path) -> Result<Network, WeightsError> {
        let b = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Network::from_bytes(&b)
    }

    /// Writes the weights atomically (temporary file, then rename).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }
}

fn fnv1a(b: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in b {
        h ^= u64::from(x);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The same probabilities seen from the other side.
pub fn flip(p: &Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Makes raw outputs consistent: gammons ≤ wins, backgammons ≤ gammons.
pub fn sanitize(p: &Probs) -> Probs {
    let w = p[0].clamp(0.0, 1.0);
    let gw = p[1].clamp(0.0, w);
    let bw = p[2].clamp(0.0, gw);
    let gl = p[3].clamp(0.0, 1.0 - w);
    let bl = p[4].clamp(0.0, gl);
    [w, gw, bw, gl, bl]
}

/// Cubeless money equity of `p` (per unit stake).
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// The exact value of a finished game for the mover of `after`.
pub fn terminal(after: &Position) -> Option<Probs> {
    after.game_result().map(|r| {
        use tabula_shared::backgammon::GameResultKind as K;
        let g = f32::from(u8::from(r.kind != K::Single));
        let bg = f32::from(u8::from(r.kind == K::Backgammon));
        if r.mover_wins {
            [1.0, g, bg, 0.0, 0.0]
        } else {
            [0.0, 0.0, 0.0, g, bg]
        }
    })
}

/// Raw 0-ply value of a candidate result `after` for its mover.
pub fn value_after(net: &Network, after: &Position) -> Probs {
    match terminal(after) {
        Some(t) => t,
        None => flip(&net.eval(&after.switch_sides())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The forward pass written out plainly, one unit at a time.
    fn reference_forward(net: &Network, inp: &Inputs) -> Probs {
        let hn = net.hidden;
        let mut h = vec![0f32; hn];
        for (i, v) in inp.iter().filter(|&(i, _)| i < net.inputs) {
            for (j, a) in h.iter_mut().enumerate() {
                *a += v * net.w1[i * hn + j];
            }
        }
        let h: Vec<f32> = h.into_iter().map(sigmoid).collect();
        std::array::from_fn(|o| {
            let row = &net.w2[o * (hn + 1)..(o + 1) * (hn + 1)];
            let z: f32 = row[hn] + h.iter().zip(row).map(|(a, w)| a * w).sum::<f32>();
            sigmoid(z)
        })
    }

    /// Positions along a random game from the start.
    fn game_positions(seed: u64) -> Vec<Position> {
        let mut rng = Rng::new(seed);
        let mut pos = Position::START;
        let mut out = Vec::new();
        let mut buf = Vec::new();
        for ply in 0..200 {
            out.push(pos);
            let dice = if ply == 0 {
                rng.opening_dice()
            } else {
                rng.dice()
            };
            pos.legal_positions_into(dice, false, &mut buf);
            if !buf.is_empty() {
                pos = buf[rng.below(buf.len() as u64) as usize];
            }
            if terminal(&pos).is_some() {
                break;
            }
            pos = pos.switch_sides();
        }
        out
    }

    #[test]
    fn the_vector_exponential_matches_the_library_one() {
        for k in -4000..=4000 {
            let x = k as f32 / 100.0;
            let (fast, lib) = (exp_lanes(x), x.exp());
            assert!((fast - lib).abs() <= 3e-7 * lib, "e^{x}: {fast} vs {lib}");
            let (fast, lib) = (sigmoid_lanes(x), sigmoid(x));
            assert!((fast - lib).abs() <= 2e-7, "sigmoid({x}): {fast} vs {lib}");
        }
    }

    #[test]
    fn the_blocked_forward_pass_matches_the_plain_one_for_any_width() {
        for hidden in [1, 7, 64, 80, 100, 256] {
            let net = Network::random(hidden, hidden as u64);
            for pos in game_positions(hidden as u64) {
                let inp = encode_first(&pos, net.inputs);
                let fast = net.forward(&inp).out;
                let plain = reference_forward(&net, &inp);
                for (a, b) in fast.iter().zip(&plain) {
                    assert!(
                        (a - b).abs() < 1e-5,
                        "hidden {hidden}: {fast:?} vs {plain:?}"
                    );
                }
                // The AVX2 build and the portable one agree bit for bit.
                assert_eq!(fast, net.forward_portable(&inp).out);
            }
        }
    }
}
