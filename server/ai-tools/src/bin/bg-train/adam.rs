//! Minibatch training of a network on labelled positions with Adam
//! (Kingma and Ba, 2014) and the cross-entropy of each output: the
//! supervised fit `distill --adam` uses instead of one plain gradient step
//! per sample.

use tabula_ai::backgammon::nn::{Inputs, Network, Probs};

use crate::distill::{Fit, run_epochs};

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Adam's running moments for one block of weights.
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Moments {
    fn new(len: usize) -> Moments {
        Moments {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// One Adam step on `w` with the batch's mean gradient `g` (cleared
    /// after use); `t` counts the steps from 1.
    fn step(&mut self, w: &mut [f32], g: &mut [f32], rate: f32, t: i32) {
        let c1 = 1.0 - BETA1.powi(t);
        let c2 = 1.0 - BETA2.powi(t);
        let rate = rate * c2.sqrt() / c1;
        for (((w, g), m), v) in w
            .iter_mut()
            .zip(g.iter_mut())
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * *g;
            *v = BETA2 * *v + (1.0 - BETA2) * *g * *g;
            *w -= rate * *m / (v.sqrt() + EPSILON);
            *g = 0.0;
        }
    }
}

/// How long and how fast [`train`] goes.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Shuffled passes over the training samples.
    pub epochs: usize,
    /// Adam's starting rate; it falls linearly to a tenth of it.
    pub rate: f32,
    /// Samples per step.
    pub batch: usize,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// Trains `net` on `train` as `schedule` says. After each epoch the fit on
/// `valid` is reported; the network that fits it best is returned.
pub fn train(
    mut net: Network,
    train: &[(Inputs, Probs)],
    valid: &[(Inputs, Probs)],
    schedule: Schedule,
    report: &mut dyn FnMut(usize, Fit, Fit),
) -> Network {
    let Schedule {
        epochs,
        rate,
        batch,
        seed,
    } = schedule;
    let batch = batch.max(1);
    let (len1, len2) = {
        let (w1, w2) = net.weights_mut();
        (w1.len(), w2.len())
    };
    let (mut g1, mut g2) = (vec![0f32; len1], vec![0f32; len2]);
    let (mut m1, mut m2) = (Moments::new(len1), Moments::new(len2));
    let total = (epochs * train.len().div_ceil(batch)).max(1) as f32;
    let mut t = 0i32;
    let mut pass = |net: &mut Network, order: &[usize]| {
        for chunk in order.chunks(batch) {
            for &i in chunk {
                let (inp, target) = &train[i];
                let act = net.forward(inp);
                net.add_gradient(inp, &act, target, &mut g1, &mut g2);
            }
            let scale = 1.0 / chunk.len() as f32;
            g1.iter_mut().chain(g2.iter_mut()).for_each(|g| *g *= scale);
            t += 1;
            let r = rate * (1.0 - 0.9 * (t - 1) as f32 / total);
            let (w1, w2) = net.weights_mut();
            m1.step(w1, &mut g1, r, t);
            m2.step(w2, &mut g2, r, t);
        }
    };
    run_epochs(net, train, valid, epochs, seed, report, &mut pass)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distill::fit;
    use tabula_ai::backgammon::nn;
    use tabula_shared::backgammon::Position;

    #[test]
    fn adam_fits_a_target_the_network_did_not_know() {
        // One position, a target far from a fresh network's outputs.
        let pos = Position::START;
        let inp = nn::encode(&pos);
        let target: Probs = [0.8, 0.3, 0.05, 0.1, 0.01];
        let samples = vec![(inp.clone(), target); 64];
        let net = Network::random(16, 3);
        let before = fit(&net, &samples).outputs;
        let schedule = Schedule {
            epochs: 30,
            rate: 0.01,
            batch: 16,
            seed: 1,
        };
        let trained = train(net, &samples, &samples, schedule, &mut |_, _, _| {});
        let after = fit(&trained, &samples).outputs;
        assert!(after < before / 10.0, "{before} -> {after}");
        assert!(after < 1e-3, "{after}");
    }
}
