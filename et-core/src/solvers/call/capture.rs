//! Bounded capture of a solver's stdout or stderr, and the non-blocking read of a pipe
//! that feeds it.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

/// Size of the buffer each `read` fills; large outputs are consumed in chunks this big.
pub(super) const READ_CHUNK: usize = 64 * 1024;

/// One captured output stream: the kept bytes. Like BenchExec, an overlong output loses
/// its middle, not its end: the first `cap - tail_cap` bytes and the last `tail_cap`
/// bytes are kept, because a solver's final words (its answer after a long trace, an
/// assertion after a long dump) matter.
pub(crate) struct Capture {
    head: Vec<u8>,
    head_cap: usize,
    /// Bytes after the head; trimmed to the last `tail_cap` bytes now and then.
    tail: Vec<u8>,
    tail_cap: usize,
    total: u64,
}

/// One non-blocking read of `fd` into `buf` (one per wake-up, so a flooding stream
/// cannot starve the other one or the deadline): `Some(0)` at end of file, `None` when
/// nothing is there.
pub(super) fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    loop {
        // SAFETY: the pointer and length describe the live, writable `buf`; read
        // writes at most `buf.len()` bytes into it, and any bytes are valid u8s.
        let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n >= 0 {
            return Ok(Some(n as usize));
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => return Ok(None),
            _ => return Err(e),
        }
    }
}

impl Capture {
    /// An empty capture keeping at most `cap` bytes.
    pub fn new(cap: usize) -> Self {
        let tail_cap = (cap / 4).min(64 * 1024);
        Capture {
            head: Vec::new(),
            head_cap: cap - tail_cap,
            tail: Vec::new(),
            tail_cap,
            total: 0,
        }
    }

    /// Keeps `chunk`, the next bytes of the stream, within the bounds.
    pub fn push(&mut self, chunk: &[u8]) {
        let n = chunk.len();
        self.total += n as u64;
        let room = self.head_cap.saturating_sub(self.head.len()).min(n);
        self.head.extend_from_slice(&chunk[..room]);
        self.tail.extend_from_slice(&chunk[room..]);
        if self.tail.len() > 2 * self.tail_cap.max(READ_CHUNK) {
            self.tail.drain(..self.tail.len() - self.tail_cap);
        }
    }

    /// The kept bytes (with a marker line where the middle was dropped) and whether
    /// anything was dropped.
    pub fn finish(mut self) -> (Vec<u8>, bool) {
        let kept = (self.head.len() + self.tail.len()) as u64;
        if self.total <= kept && self.tail.len() <= self.tail_cap {
            self.head.append(&mut self.tail);
            return (self.head, false);
        }
        let tail = &self.tail[self.tail.len().saturating_sub(self.tail_cap)..];
        let dropped = self.total - (self.head.len() + tail.len()) as u64;
        self.head
            .extend_from_slice(format!("\n[et: {dropped} bytes omitted]\n").as_bytes());
        self.head.extend_from_slice(tail);
        (self.head, true)
    }
}
