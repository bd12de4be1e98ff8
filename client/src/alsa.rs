//! [`Alsa`]: the few calls of ALSA's PCM interface that the speaker needs,
//! from `libasound.so.2` loaded at run time. Building the client so needs
//! no ALSA headers or pkg-config; a machine without the library (a server,
//! a container) gets a clear error and a silent client.

use std::ffi::{CStr, c_char, c_int, c_long, c_uint, c_ulong, c_void};

use libloading::Library;

/// `snd_pcm_stream_t`: playback.
const STREAM_PLAYBACK: c_int = 0;
/// `snd_pcm_format_t`: 32-bit float, little endian.
const FORMAT_FLOAT_LE: c_int = 14;
/// `snd_pcm_access_t`: interleaved reads and writes.
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// How much sound ALSA buffers, in microseconds: short enough that a move's
/// click is heard with the move.
const LATENCY_US: c_uint = 60_000;

type OpenFn = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParamsFn =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteFn = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type RecoverFn = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type CloseFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type StrErrorFn = unsafe extern "C" fn(c_int) -> *const c_char;

/// The loaded library and the functions taken from it.
pub struct Alsa {
    open: OpenFn,
    set_params: SetParamsFn,
    write: WriteFn,
    recover: RecoverFn,
    close: CloseFn,
    strerror: StrErrorFn,
    /// Kept loaded while the functions above are in use.
    _library: Library,
}

impl Alsa {
    /// Loads `libasound.so.2` and its PCM functions.
    pub fn load() -> Result<Alsa, String> {
        // SAFETY: libasound's initialisers have no preconditions, and each
        // symbol is taken with the signature alsa/pcm.h declares for it.
        unsafe {
            let library = Library::new("libasound.so.2")
                .map_err(|e| format!("ALSA's library is not installed ({e})"))?;
            let symbol = |name: &[u8]| -> Result<*const c_void, String> {
                library
                    .get::<*const c_void>(name)
                    .map(|s| *s)
                    .map_err(|e| e.to_string())
            };
            Ok(Alsa {
                open: std::mem::transmute::<*const c_void, OpenFn>(symbol(b"snd_pcm_open\0")?),
                set_params: std::mem::transmute::<*const c_void, SetParamsFn>(symbol(
                    b"snd_pcm_set_params\0",
                )?),
                write: std::mem::transmute::<*const c_void, WriteFn>(symbol(b"snd_pcm_writei\0")?),
                recover: std::mem::transmute::<*const c_void, RecoverFn>(symbol(
                    b"snd_pcm_recover\0",
                )?),
                close: std::mem::transmute::<*const c_void, CloseFn>(symbol(b"snd_pcm_close\0")?),
                strerror: std::mem::transmute::<*const c_void, StrErrorFn>(symbol(
                    b"snd_strerror\0",
                )?),
                _library: library,
            })
        }
    }

    /// Opens the "default" device for mono 32-bit float playback at `rate`.
    pub fn open_playback(self, rate: u32) -> Result<Pcm, String> {
        let mut handle = std::ptr::null_mut();
        // SAFETY: `handle` is written by snd_pcm_open before it is used,
        // and the device name is a NUL-terminated string.
        let code = unsafe { (self.open)(&mut handle, c"default".as_ptr(), STREAM_PLAYBACK, 0) };
        if code < 0 {
            return Err(format!("no audio output device ({})", self.error(code)));
        }
        let pcm = Pcm { alsa: self, handle };
        // SAFETY: `handle` is an open PCM.
        let code = unsafe {
            (pcm.alsa.set_params)(
                pcm.handle,
                FORMAT_FLOAT_LE,
                ACCESS_RW_INTERLEAVED,
                1,
                rate,
                1,
                LATENCY_US,
            )
        };
        if code < 0 {
            return Err(format!(
                "the audio device refused mono sound ({})",
                pcm.alsa.error(code)
            ));
        }
        Ok(pcm)
    }

    /// ALSA's text for an error code.
    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static NUL-terminated string.
        unsafe { CStr::from_ptr((self.strerror)(code)) }
            .to_string_lossy()
            .into_owned()
    }
}

/// An open playback device; closed when dropped.
pub struct Pcm {
    alsa: Alsa,
    handle: *mut c_void,
}

// SAFETY: an ALSA PCM may be used from any one thread at a time, and `Pcm`
// is moved, not shared.
unsafe impl Send for Pcm {}

impl Pcm {
    /// Plays `samples` (mono), blocking while the device's buffer is full;
    /// an underrun is recovered from, other errors end the sound.
    pub fn write(&self, mut samples: &[f32]) -> Result<(), String> {
        while !samples.is_empty() {
            // SAFETY: the pointer and length describe `samples`, one frame
            // per sample (mono).
            let written = unsafe {
                (self.alsa.write)(
                    self.handle,
                    samples.as_ptr().cast(),
                    samples.len() as c_ulong,
                )
            };
            if written < 0 {
                let code = written as c_int;
                // SAFETY: `handle` is an open PCM; 1 = silent recovery.
                if unsafe { (self.alsa.recover)(self.handle, code, 1) } < 0 {
                    return Err(self.alsa.error(code));
                }
                continue;
            }
            samples = &samples[(written as usize).min(samples.len())..];
        }
        Ok(())
    }
}

impl Drop for Pcm {
    fn drop(&mut self) {
        // SAFETY: `handle` is open and not used after this.
        unsafe {
            (self.alsa.close)(self.handle);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where ALSA is installed its functions load (with or without a
    /// device); where it is not, the error says so instead of failing.
    #[test]
    fn alsa_loads_or_says_it_is_missing() {
        match Alsa::load() {
            Ok(alsa) => match alsa.open_playback(44_100) {
                Ok(pcm) => pcm.write(&[0.0; 441]).expect("a short silence plays"),
                Err(e) => assert!(e.contains("audio"), "{e}"),
            },
            Err(e) => assert!(e.contains("ALSA"), "{e}"),
        }
    }
}
