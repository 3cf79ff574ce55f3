//! Writing to stdout the way a Unix filter should: buffered, and a closed pipe
//! (`et enumerate ... | head`) ends the program quietly with success.

use std::io::{self, Write};
use std::process::ExitCode;

/// Buffered stdout that treats a closed pipe as "stop, all is well".
pub struct Output {
    out: io::StdoutLock<'static>,
    buf: Vec<u8>,
}

/// The reader went away: stop producing.
#[derive(Debug)]
pub struct Closed;

impl Output {
    /// Locks stdout.
    pub fn new() -> Output {
        Output {
            out: io::stdout().lock(),
            buf: Vec::with_capacity(1 << 17),
        }
    }

    /// The buffer to append a line to; call [`Output::end_line`] after.
    pub fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    /// Ends the line and writes the buffer out once it is large.
    pub fn end_line(&mut self) -> Result<(), Closed> {
        self.buf.push(b'\n');
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes everything buffered.
    pub fn flush(&mut self) -> Result<(), Closed> {
        let result = self.out.write_all(&self.buf).and_then(|_| self.out.flush());
        self.buf.clear();
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Closed),
            Err(e) => {
                eprintln!("et: cannot write to standard output: {e}");
                std::process::exit(super::EXIT_FAILURE.into());
            }
        }
    }
}

impl Drop for Output {
    /// Writes out what is still buffered, so that an error that ends a command early
    /// (a bad line of `et rank`'s input) comes after every result printed before it.
    /// A closed pipe or a failed write is not reported again here.
    fn drop(&mut self) {
        if !self.buf.is_empty() {
            let _ = self.out.write_all(&self.buf).and_then(|_| self.out.flush());
            self.buf.clear();
        }
    }
}

/// Success, whether the output was complete or the pipe closed early.
pub fn finished(result: Result<(), Closed>) -> anyhow::Result<ExitCode> {
    let _ = result;
    Ok(ExitCode::SUCCESS)
}
