//! [`FilePicker`]: the system's "Save as" dialog for the export window, on
//! the desktop. The dialog runs on a thread of its own (rfd, with the XDG
//! desktop portal on Linux), so the window keeps drawing; the app polls for
//! the answer each frame.

use std::path::{Path, PathBuf};
use std::sync::mpsc;

/// The dialog, while one is open.
#[derive(Debug, Default)]
pub struct FilePicker {
    /// Receives the path chosen (None when the dialog was cancelled or
    /// could not open); `None` while no dialog is open.
    answer: Option<mpsc::Receiver<Option<PathBuf>>>,
}

impl FilePicker {
    /// Opens a "Save as" dialog proposing `suggested` (its folder and its
    /// name); one at a time.
    pub fn open(&mut self, suggested: &Path) {
        if self.answer.is_some() {
            return;
        }
        let mut dialog = rfd::AsyncFileDialog::new();
        if let Some(dir) = suggested.parent().filter(|d| d.is_dir()) {
            dialog = dialog.set_directory(dir);
        }
        if let Some(name) = suggested.file_name().and_then(|n| n.to_str()) {
            dialog = dialog.set_file_name(name);
        }
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("tabula-save-as".into())
            .spawn(move || {
                let chosen = pollster::block_on(dialog.save_file());
                let _ = tx.send(chosen.map(|f| f.path().to_path_buf()));
            });
        if spawned.is_ok() {
            self.answer = Some(rx);
        }
    }

    /// Whether a dialog is open.
    pub fn is_open(&self) -> bool {
        self.answer.is_some()
    }

    /// The path chosen, once the dialog has closed with one.
    pub fn poll(&mut self) -> Option<PathBuf> {
        let rx = self.answer.as_ref()?;
        match rx.try_recv() {
            Ok(chosen) => {
                self.answer = None;
                chosen
            }
            Err(mpsc::TryRecvError::Empty) => None,
            Err(mpsc::TryRecvError::Disconnected) => {
                self.answer = None;
                None
            }
        }
    }

    /// A picker whose dialog has already answered `chosen` (for tests).
    #[cfg(test)]
    pub(crate) fn answered(chosen: Option<PathBuf>) -> FilePicker {
        let (tx, rx) = mpsc::channel();
        let _ = tx.send(chosen);
        FilePicker { answer: Some(rx) }
    }
}
