//! The sounds the client makes: [`Sound`], what the app asks for, and the
//! short tones each one is made of. The app only queues sounds; a
//! [`crate::speaker::Speaker`] plays them (or nothing, where there is no
//! audio device), so tests read the queue and need no sound card.

/// Something worth a sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sound {
    /// A stone placed or a play made.
    Move,
    /// A Backgammon play that hit a checker.
    Hit,
    /// It is now our turn.
    YourTurn,
    /// Our clock fell under [`LOW_TIME_MS`].
    LowTime,
    /// The game ended.
    GameEnd,
}

/// Below this, our running clock sounds [`Sound::LowTime`] (once a turn).
pub const LOW_TIME_MS: u64 = 10_000;

/// One tone of a sound: its pitch in hertz (0 for a rest) and its length
/// in seconds.
pub type Note = (f32, f32);

impl Sound {
    /// The tones, in order.
    pub fn notes(self) -> &'static [Note] {
        match self {
            Sound::Move => &[(700.0, 0.06)],
            Sound::Hit => &[(330.0, 0.07), (220.0, 0.12)],
            Sound::YourTurn => &[(523.0, 0.09), (784.0, 0.14)],
            Sound::LowTime => &[
                (880.0, 0.06),
                (0.0, 0.06),
                (880.0, 0.06),
                (0.0, 0.06),
                (880.0, 0.06),
            ],
            Sound::GameEnd => &[(523.0, 0.12), (659.0, 0.12), (784.0, 0.25)],
        }
    }

    /// The sound as mono samples in -1..=1 at `rate` samples a second: sine
    /// tones with a quick attack and a decay, so that no note clicks.
    pub fn samples(self, rate: u32) -> Vec<f32> {
        let rate = rate.max(1) as f32;
        let mut out = Vec::new();
        for &(pitch, secs) in self.notes() {
            let n = (secs * rate) as usize;
            for i in 0..n {
                let t = i as f32 / rate;
                let attack = (t / 0.005).min(1.0);
                let decay = 1.0 - i as f32 / n as f32;
                let wave = (t * pitch * std::f32::consts::TAU).sin();
                out.push(if pitch > 0.0 {
                    0.3 * wave * attack * decay
                } else {
                    0.0
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sound_is_short_quiet_and_starts_and_ends_silent() {
        for sound in [
            Sound::Move,
            Sound::Hit,
            Sound::YourTurn,
            Sound::LowTime,
            Sound::GameEnd,
        ] {
            let s = sound.samples(48_000);
            assert!(!s.is_empty() && s.len() < 48_000, "{sound:?}: {}", s.len());
            assert!(s.iter().all(|x| x.abs() <= 0.3), "{sound:?} too loud");
            assert!(
                s[0].abs() < 0.01 && s[s.len() - 1].abs() < 0.01,
                "{sound:?} clicks"
            );
            assert!(s.iter().any(|x| x.abs() > 0.1), "{sound:?} silent");
        }
    }
}
