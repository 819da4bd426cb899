//! The real binary in a pseudo-terminal, shared by `tests/pty.rs` and the documented commands'
//! test (`tests/app/documented.rs`): start a command on a fresh terminal, read its screen, type.

// Not every helper is used by both test binaries.
#![allow(dead_code)]
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{LocalModes, Winsize, tcgetattr, tcsetwinsize};

pub const COLS: u16 = 120;

pub fn parser(rows: u16, cols: u16) -> vt100::Parser {
    let nz = |n| std::num::NonZeroU16::new(n).expect("a size");
    vt100::Parser::new(nz(rows), nz(cols), 0)
}
pub const ROWS: u16 = 36;

/// The explorer running in a pseudo-terminal, with everything it printed so far.
pub struct Session {
    pub child: Child,
    pub master: File,
    /// Tells the reader thread to let go of its copy of the master side.
    pub stop: Arc<AtomicBool>,
    pub reader: Option<std::thread::JoinHandle<()>>,
    /// Kept open so the terminal's modes can be read after the child exits.
    pub slave: OwnedFd,
    pub output: Arc<Mutex<Vec<u8>>>,
}

impl Session {
    pub fn start(args: &[&str], dir: &std::path::Path) -> Session {
        Session::start_with(args, dir, &[])
    }

    pub fn start_with(args: &[&str], dir: &std::path::Path, env: &[(&str, &str)]) -> Session {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_prune"));
        cmd.args(args)
            .current_dir(dir)
            .env("TERM", "xterm-256color")
            .env("NO_COLOR", "1")
            .env("XDG_CONFIG_HOME", dir)
            .envs(env.iter().copied());
        Session::spawn(cmd)
    }

    /// Starts `cmd` with a new pseudo-terminal of `ROWS` × `COLS` as its controlling terminal
    /// and its standard input, output and error.
    pub fn spawn(mut cmd: Command) -> Session {
        let master =
            openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC).expect("openpt");
        grantpt(&master).expect("grantpt");
        unlockpt(&master).expect("unlockpt");
        let name = ptsname(&master, Vec::new()).expect("ptsname");
        let slave_path = name.to_str().expect("utf-8 pty name").to_owned();
        let slave: OwnedFd = File::options()
            .read(true)
            .write(true)
            .open(&slave_path)
            .expect("open the pty")
            .into();
        tcsetwinsize(
            &slave,
            Winsize {
                ws_row: ROWS,
                ws_col: COLS,
                ws_xpixel: 0,
                ws_ypixel: 0,
            },
        )
        .expect("window size");
        let io = |_: ()| -> Stdio { File::from(slave.try_clone().unwrap()).into() };
        cmd.stdin(io(())).stdout(io(())).stderr(io(()));
        // The pty becomes the child's controlling terminal, as in a real terminal session.
        unsafe {
            cmd.pre_exec(|| {
                rustix::process::setsid().map_err(std::io::Error::from)?;
                rustix::process::ioctl_tiocsctty(std::io::stdin().as_fd())
                    .map_err(std::io::Error::from)?;
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn the command");
        let master = File::from(master);
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut reader = master.try_clone().unwrap();
        let sink = Arc::clone(&output);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while !stopped.load(Ordering::Relaxed) {
                // Wait for output a little at a time, so that a hang-up can take the master away.
                let mut fds = [PollFd::new(&reader, PollFlags::IN)];
                let tick = Timespec {
                    tv_sec: 0,
                    tv_nsec: 50_000_000,
                };
                if !matches!(rustix::event::poll(&mut fds, Some(&tick)), Ok(n) if n > 0) {
                    continue;
                }
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => sink.lock().unwrap().extend_from_slice(&buf[..n]),
                    _ => break,
                }
            }
        });
        Session {
            child,
            master,
            stop,
            reader: Some(reader),
            slave,
            output,
        }
    }

    /// Takes the terminal away, as closing its window does: every copy of the master side is
    /// closed (the slave kept here does not keep the terminal alive).
    pub fn hang_up(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
        drop(std::mem::replace(
            &mut self.master,
            File::open("/dev/null").unwrap(),
        ));
    }

    /// Waits for the process to end within `limit`, and returns how it ended.
    pub fn exits_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                panic!("prune was still running {limit:?} after it was asked to end");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn signal(&self, sig: rustix::process::Signal) {
        rustix::process::kill_process(rustix::process::Pid::from_child(&self.child), sig).unwrap();
    }

    pub fn send(&mut self, keys: &str) {
        self.master.write_all(keys.as_bytes()).unwrap();
        self.master.flush().unwrap();
        std::thread::sleep(Duration::from_millis(60));
    }

    pub fn screen(&self) -> String {
        let mut parser = parser(ROWS, COLS);
        parser.process(&self.output.lock().unwrap());
        parser.screen().contents()
    }

    /// Waits until the screen shows `text` (a slow machine gets 20 s).
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(text) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the screen never showed {text:?}:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_exit(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "prune did not exit"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The terminal is back in cooked mode and off the alternate screen.
    pub fn assert_restored(&self) {
        let modes = tcgetattr(&self.slave).expect("tcgetattr");
        assert!(
            modes
                .local_modes
                .contains(LocalModes::ICANON | LocalModes::ECHO),
            "raw mode left on: {:?}",
            modes.local_modes
        );
        std::thread::sleep(Duration::from_millis(100));
        let out = self.output.lock().unwrap();
        let text = String::from_utf8_lossy(&out);
        let entered = text
            .rfind("\x1b[?1049h")
            .expect("the alternate screen was used");
        let left = text
            .rfind("\x1b[?1049l")
            .expect("the alternate screen was left");
        assert!(
            left > entered,
            "left the alternate screen after entering it"
        );
        assert!(
            text[left..].contains("\x1b[?25h") || text[entered..].contains("\x1b[?25h"),
            "cursor shown again"
        );
    }
}
