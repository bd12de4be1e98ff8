//! [`Speaker`]: plays the [`Sound`]s the app queued. On the desktop a
//! thread of its own synthesizes the tones into the default output device:
//! on Linux through ALSA's `libasound.so.2`, loaded at run time
//! ([`crate::alsa`], so that building needs no audio headers), elsewhere
//! through cpal; in a browser, Web Audio oscillators play them. Where there
//! is no audio library or device it says so once on stderr and stays silent:
//! nothing else depends on it.

use crate::sound::Sound;

#[cfg(not(target_arch = "wasm32"))]
pub use native::Speaker;
#[cfg(target_arch = "wasm32")]
pub use web::Speaker;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::collections::VecDeque;
    use std::sync::mpsc;
    use std::sync::{Arc, Mutex};

    use super::Sound;

    #[cfg(target_os = "linux")]
    use super::alsa_output::open;
    #[cfg(not(target_os = "linux"))]
    use super::cpal_output::open;

    /// At most this many seconds of sound wait to be played; a burst of
    /// sounds past it is dropped rather than heard late.
    const MAX_BACKLOG_SECS: u32 = 2;

    /// The samples waiting for the device, mono.
    pub(super) type Queue = Arc<Mutex<VecDeque<f32>>>;

    /// The desktop's player: a handle on the sound thread.
    pub struct Speaker {
        /// Sends the sounds to the thread (None if it could not start).
        sounds: Option<mpsc::Sender<Sound>>,
        /// The thread, to wait for in [`Speaker::close`].
        thread: Option<std::thread::JoinHandle<()>>,
    }

    impl Speaker {
        /// Starts the sound thread; the device is opened at the first sound.
        pub fn new() -> Speaker {
            let (tx, rx) = mpsc::channel();
            let started = std::thread::Builder::new()
                .name("tabula-sound".into())
                .spawn(move || run(rx));
            match started {
                Ok(thread) => Speaker {
                    sounds: Some(tx),
                    thread: Some(thread),
                },
                Err(_) => Speaker {
                    sounds: None,
                    thread: None,
                },
            }
        }

        /// Stops the sound thread once it has taken every sound sent, and
        /// says whether it ended normally (it did not panic).
        pub fn close(mut self) -> bool {
            self.sounds = None;
            self.thread.take().is_none_or(|t| t.join().is_ok())
        }

        /// Plays `sound` (returns at once).
        pub fn play(&self, sound: Sound) {
            if let Some(tx) = &self.sounds {
                let _ = tx.send(sound);
            }
        }
    }

    impl Default for Speaker {
        fn default() -> Speaker {
            Speaker::new()
        }
    }

    /// The open device and what it plays from.
    pub(super) struct Output {
        /// Keeps the device open; dropping it stops the sound.
        pub(super) _device: Box<dyn std::any::Any>,
        /// The samples to play.
        pub(super) queue: Queue,
        /// The device's sample rate.
        pub(super) rate: u32,
    }

    /// The sound thread: opens the device at the first sound, then feeds
    /// it every sound until the app drops its handle.
    fn run(sounds: mpsc::Receiver<Sound>) {
        let mut output: Option<Option<Output>> = None;
        while let Ok(sound) = sounds.recv() {
            let opened = output.get_or_insert_with(|| match open() {
                Ok(o) => Some(o),
                Err(e) => {
                    eprintln!("tabula: no sound ({e})");
                    None
                }
            });
            if let Some(out) = opened {
                let samples = sound.samples(out.rate);
                let mut queue = out.queue.lock().unwrap_or_else(|p| p.into_inner());
                if queue.len() < (out.rate * MAX_BACKLOG_SECS) as usize {
                    queue.extend(samples);
                }
            }
        }
    }
}

/// Linux: ALSA's PCM device "default", fed by a thread of its own.
#[cfg(all(not(target_arch = "wasm32"), target_os = "linux"))]
mod alsa_output {
    use super::native::{Output, Queue};
    use crate::alsa::Alsa;

    /// The rate the tones are made at; ALSA's "default" device resamples.
    const RATE: u32 = 44_100;
    /// Samples handed to the device at a time (about 23 ms).
    const CHUNK: usize = 1024;

    /// Opens the default device and starts the thread that feeds it.
    pub(super) fn open() -> Result<Output, String> {
        let pcm = Alsa::load()?.open_playback(RATE)?;
        let queue = Queue::default();
        let feed = queue.clone();
        std::thread::Builder::new()
            .name("tabula-alsa".into())
            .spawn(move || {
                let mut chunk = vec![0.0f32; CHUNK];
                loop {
                    {
                        let mut queue = feed.lock().unwrap_or_else(|p| p.into_inner());
                        for slot in chunk.iter_mut() {
                            *slot = queue.pop_front().unwrap_or(0.0);
                        }
                    }
                    // Blocks until the device has room: this paces the loop.
                    if let Err(e) = pcm.write(&chunk) {
                        eprintln!("tabula: sound: {e}");
                        return;
                    }
                    if std::sync::Arc::strong_count(&feed) == 1 {
                        return; // the speaker was closed
                    }
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(Output {
            _device: Box::new(()),
            queue,
            rate: RATE,
        })
    }
}

/// Other desktops: cpal's default output device.
#[cfg(all(not(target_arch = "wasm32"), not(target_os = "linux")))]
mod cpal_output {
    use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
    use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};

    use super::native::{Output, Queue};

    /// Opens the default output device.
    pub(super) fn open() -> Result<Output, String> {
        let device = cpal::default_host()
            .default_output_device()
            .ok_or("no audio output device")?;
        let supported = device.default_output_config().map_err(|e| e.to_string())?;
        let format = supported.sample_format();
        let config: StreamConfig = supported.into();
        let rate = config.sample_rate;
        let queue = Queue::default();
        let stream = match format {
            SampleFormat::F32 => stream::<f32>(&device, config, queue.clone()),
            SampleFormat::I16 => stream::<i16>(&device, config, queue.clone()),
            SampleFormat::U16 => stream::<u16>(&device, config, queue.clone()),
            SampleFormat::I32 => stream::<i32>(&device, config, queue.clone()),
            other => Err(format!("unsupported sample format {other}")),
        }?;
        stream.play().map_err(|e| e.to_string())?;
        Ok(Output {
            _device: Box::new(stream),
            queue,
            rate,
        })
    }

    /// A stream that plays the queue on every channel, silence when empty.
    fn stream<T: SizedSample + FromSample<f32>>(
        device: &cpal::Device,
        config: StreamConfig,
        queue: Queue,
    ) -> Result<cpal::Stream, String> {
        let channels = usize::from(config.channels.max(1));
        device
            .build_output_stream(
                config,
                move |data: &mut [T], _: &cpal::OutputCallbackInfo| {
                    let mut queue = queue.lock().unwrap_or_else(|p| p.into_inner());
                    for frame in data.chunks_mut(channels) {
                        let value = T::from_sample(queue.pop_front().unwrap_or(0.0));
                        frame.fill(value);
                    }
                },
                |e| eprintln!("tabula: sound: {e}"),
                None,
            )
            .map_err(|e| e.to_string())
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;

    use web_sys::AudioContext;

    use super::Sound;

    /// The browser's player: one Web Audio context, made at the first
    /// sound (browsers allow sound only after the player has clicked).
    #[derive(Default)]
    pub struct Speaker {
        /// The context, once made; `Err` when the browser refused it.
        context: RefCell<Option<Result<AudioContext, ()>>>,
    }

    impl Speaker {
        /// A player with no context yet.
        pub fn new() -> Speaker {
            Speaker::default()
        }

        /// Schedules `sound`'s tones as oscillators.
        pub fn play(&self, sound: Sound) {
            let mut context = self.context.borrow_mut();
            let Ok(ctx) = context.get_or_insert_with(|| AudioContext::new().map_err(|_| ())) else {
                return;
            };
            // A context made before the player touched the page starts
            // suspended; once they have, it may run.
            let _ = ctx.resume();
            let mut at = ctx.current_time();
            for &(pitch, secs) in sound.notes() {
                let secs = f64::from(secs);
                if pitch > 0.0 {
                    let _ = tone(ctx, pitch, at, secs);
                }
                at += secs;
            }
        }
    }

    /// One sine tone from `at` for `secs`, fading out.
    fn tone(
        ctx: &AudioContext,
        pitch: f32,
        at: f64,
        secs: f64,
    ) -> Result<(), wasm_bindgen::JsValue> {
        let osc = ctx.create_oscillator()?;
        osc.frequency().set_value(pitch);
        let gain = ctx.create_gain()?;
        gain.gain().set_value_at_time(0.3, at)?;
        gain.gain().linear_ramp_to_value_at_time(0.0, at + secs)?;
        osc.connect_with_audio_node(&gain)?;
        gain.connect_with_audio_node(&ctx.destination())?;
        osc.start_with_when(at)?;
        osc.stop_with_when(at + secs)?;
        Ok(())
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// Without an audio device (as on a build machine) or with one, every
    /// sound goes through and the sound thread ends cleanly.
    #[test]
    fn the_speaker_plays_or_stays_silent_without_failing() {
        let speaker = Speaker::new();
        for sound in [
            Sound::Move,
            Sound::Hit,
            Sound::YourTurn,
            Sound::LowTime,
            Sound::GameEnd,
        ] {
            speaker.play(sound);
        }
        assert!(speaker.close(), "the sound thread panicked");
    }
}
