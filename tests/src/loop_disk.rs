//! [`LoopDisk`]: a small real ext4 file system in an image file, mounted
//! through a loop device, for tests of what the server does when its disk
//! stalls (`fsfreeze`) or turns read-only under it (an ext4 error with
//! `errors=remount-ro`, forced through the kernel's `trigger_fs_error`).
//! Mounting needs root (CI runs as root).

use std::path::{Path, PathBuf};
use std::process::Command;

/// An ext4 image mounted on a temporary directory; unmounted when dropped.
pub struct LoopDisk {
    /// Holds the image file.
    _home: tempfile::TempDir,
    image: PathBuf,
    mount: tempfile::TempDir,
}

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl LoopDisk {
    /// Makes a 32 MB ext4 image and mounts it with `errors=remount-ro`.
    pub fn mount() -> LoopDisk {
        let home = tempfile::tempdir().expect("temp dir");
        let image = home.path().join("disk.img");
        std::fs::File::create(&image)
            .and_then(|f| f.set_len(32 << 20))
            .expect("image file");
        run(Command::new("mkfs.ext4").arg("-q").arg(&image));
        let disk = LoopDisk {
            _home: home,
            image,
            mount: tempfile::tempdir().expect("mount point"),
        };
        disk.attach();
        disk
    }

    fn attach(&self) {
        run(Command::new("mount")
            .args(["-o", "loop,errors=remount-ro"])
            .arg(&self.image)
            .arg(self.mount.path()));
    }

    /// Where the file system is mounted.
    pub fn path(&self) -> &Path {
        self.mount.path()
    }

    /// Freezes the file system: every write waits until [`LoopDisk::thaw`].
    pub fn freeze(&self) {
        run(Command::new("fsfreeze").arg("-f").arg(self.path()));
    }

    /// Lets writes through again.
    pub fn thaw(&self) {
        run(Command::new("fsfreeze").arg("-u").arg(self.path()));
    }

    /// Forces an ext4 error: the kernel aborts the journal and turns the
    /// file system read-only at once, open files and all (what a failing
    /// disk does). What was synced before is in the journal; what was not
    /// is lost.
    pub fn fail(&self) {
        let out = Command::new("findmnt")
            .args(["-n", "-o", "SOURCE", "--target"])
            .arg(self.path())
            .output()
            .expect("findmnt runs");
        let source = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let device = source.rsplit('/').next().unwrap_or_default().to_string();
        let trigger = format!("/sys/fs/ext4/{device}/trigger_fs_error");
        std::fs::write(&trigger, "1").unwrap_or_else(|e| panic!("writing {trigger}: {e}"));
    }

    /// Unmounts and mounts the image again (replaying its journal), as a
    /// machine coming back after the failure would.
    pub fn remount(&self) {
        run(Command::new("umount").arg(self.path()));
        // e2fsck says 1 when it corrected something (the error flag the
        // failure set), which is expected here.
        let checked = Command::new("e2fsck")
            .args(["-f", "-y"])
            .arg(&self.image)
            .output()
            .expect("e2fsck runs");
        assert!(
            matches!(checked.status.code(), Some(0 | 1)),
            "e2fsck: {}",
            String::from_utf8_lossy(&checked.stdout)
        );
        self.attach();
    }
}

impl Drop for LoopDisk {
    fn drop(&mut self) {
        // A test that failed while the disk was frozen must not leave it so.
        let _ = Command::new("fsfreeze").arg("-u").arg(self.path()).output();
        let _ = Command::new("umount").arg("-l").arg(self.path()).output();
    }
}
