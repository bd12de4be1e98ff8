//! The chi-square distribution's upper tail, from the regularized upper
//! incomplete gamma function Q(a, x) (Numerical Recipes' series and
//! continued fraction, with a Lanczos log-gamma).
//!
//! Written here instead of taken from a statistics crate: Tabula needs only
//! this one function, and the crates that have it bring linear algebra and
//! random-number dependencies into a crate that is otherwise small and pure.

/// Relative accuracy the series and the continued fraction stop at.
const EPS: f64 = 1e-15;
/// Iteration cap; both converge in far fewer steps for the degrees of
/// freedom a dice test uses.
const MAX_ITER: usize = 10_000;
/// Stands in for zero in Lentz's method.
const TINY: f64 = 1e-300;

/// ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 digits).
pub fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection: Γ(x) Γ(1 - x) = π / sin(πx).
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut sum = C[0];
    for (i, &c) in C.iter().enumerate().skip(1) {
        sum += c / (x + i as f64);
    }
    let t = x + G + 0.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a),
/// for a > 0 and x ≥ 0; NaN outside that domain.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if a.is_nan() || x.is_nan() || a <= 0.0 || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    if x < a + 1.0 {
        1.0 - lower_series(a, x)
    } else {
        upper_fraction(a, x)
    }
}

/// P(a, x) by its series (converges fast for x < a + 1).
fn lower_series(a: f64, x: f64) -> f64 {
    let mut ap = a;
    let mut term = 1.0 / a;
    let mut sum = term;
    for _ in 0..MAX_ITER {
        ap += 1.0;
        term *= x / ap;
        sum += term;
        if term.abs() < sum.abs() * EPS {
            break;
        }
    }
    sum * (-x + a * x.ln() - ln_gamma(a)).exp()
}

/// Q(a, x) by its continued fraction, with Lentz's method (for x ≥ a + 1).
fn upper_fraction(a: f64, x: f64) -> f64 {
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..MAX_ITER {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            break;
        }
    }
    (-x + a * x.ln() - ln_gamma(a)).exp() * h
}

/// The p-value of a chi-square statistic with `dof` degrees of freedom: the
/// chance that a fair source gives a statistic at least this large.
pub fn chi_square_p(statistic: f64, dof: u32) -> f64 {
    gamma_q(f64::from(dof) / 2.0, statistic.max(0.0) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol * b.abs().max(1e-300), "{a} vs {b}");
    }

    #[test]
    fn ln_gamma_known_values() {
        assert!(ln_gamma(1.0).abs() < 1e-14 && ln_gamma(2.0).abs() < 1e-14);
        close(ln_gamma(5.0), 24f64.ln(), 1e-14);
        close(ln_gamma(0.5), std::f64::consts::PI.sqrt().ln(), 1e-14);
        close(ln_gamma(10.5), 1_133_278.388_948_785_3_f64.ln(), 1e-13);
        close(ln_gamma(0.1), 9.513_507_698_668_732_f64.ln(), 1e-13);
    }

    #[test]
    fn q_known_values() {
        // Q(1, x) = e^-x.
        for x in [0.1_f64, 1.0, 2.5, 10.0, 40.0] {
            close(gamma_q(1.0, x), (-x).exp(), 1e-12);
        }
        // Q(1/2, x) = erfc(√x): erfc(1) and erfc(2).
        close(gamma_q(0.5, 1.0), 0.157_299_207_050_285_13, 1e-12);
        close(gamma_q(0.5, 4.0), 0.004_677_734_981_047_266, 1e-11);
        // Q(3, x) = e^-x (1 + x + x²/2).
        close(gamma_q(3.0, 2.0), (-2f64).exp() * 5.0, 1e-12);
        close(gamma_q(3.0, 7.0), (-7f64).exp() * 32.5, 1e-12);
        assert_eq!(gamma_q(2.0, 0.0), 1.0);
        assert!(gamma_q(0.0, 1.0).is_nan());
        assert!(gamma_q(1.0, -1.0).is_nan());
    }

    #[test]
    fn chi_square_critical_values() {
        // Tabulated 5 % and 0.1 % critical values.
        close(chi_square_p(3.841_458_820_694_124, 1), 0.05, 1e-9);
        close(chi_square_p(11.070_497_693_516_351, 5), 0.05, 1e-9);
        close(chi_square_p(20.515_005_652_432_873, 5), 0.001, 1e-8);
        close(chi_square_p(31.410_432_844_230_918, 20), 0.05, 1e-9);
        close(chi_square_p(45.314_746_618_124_6, 20), 0.001, 1e-8);
        // The median of chi-square with 2 degrees of freedom is 2 ln 2.
        close(chi_square_p(2.0 * 2f64.ln(), 2), 0.5, 1e-12);
        assert_eq!(chi_square_p(0.0, 5), 1.0);
    }
}
