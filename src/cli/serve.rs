//! `git checkpoint serve`: parse the arguments, start the HTTP server, say where it is.

use std::io::Write;
use std::net::IpAddr;

use crate::serve::{Config, Server};

use super::output::Ui;
use super::{Failure, cwd};

/// The port `serve` listens on unless told otherwise (Loki Mode's dashboard uses it too).
const DEFAULT_PORT: u16 = 57374;

/// Serve the checkpoints of this working tree over HTTP: a JSON API and a web page with a
/// timeline, diffs, restore, revert of one step and undo, updated live.
///
/// Prints a URL that carries a random token: every request needs it (as
/// `Authorization: Bearer <token>`, or the cookie that opening the URL sets). Only requests
/// whose Host is the bound address or `localhost` are answered, a request that changes
/// something is refused when it comes from another origin's page, and no CORS header is ever
/// sent: a page from another site in your browser can neither read nor restore anything.
/// Runs until interrupted (Ctrl-C).
#[derive(Debug, clap::Args)]
#[command(after_long_help = "\
Examples:
  git checkpoint serve                # prints http://127.0.0.1:57374/?token=...: open it
  git checkpoint serve --open         # and opens it in the browser
  git checkpoint serve --port 0       # on a free port
  curl -H \"Authorization: Bearer $TOKEN\" 'http://127.0.0.1:57374/api/checkpoints?limit=5'
  curl -H \"Authorization: Bearer $TOKEN\" -X POST -H 'Content-Type: application/json' \\
       -d '{\"dry_run\": true}' http://127.0.0.1:57374/api/checkpoints/@/restore

Endpoints: GET /api/repository, GET/POST /api/checkpoints, GET/DELETE /api/checkpoints/{cp},
GET /api/checkpoints/{cp}/diff[?to=CP2|?base=head], POST /api/checkpoints/{cp}/restore,
POST /api/checkpoints/{cp}/revert, POST /api/undo, POST /api/redo, PUT/DELETE /api/checkpoints/{cp}/pin, GET /api/events.")]
pub struct Args {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Open the page in the web browser.
    #[arg(long)]
    open: bool,
    /// The address to listen on. Anything but a loopback address lets other machines reach
    /// the server (the token still guards it, but travels unencrypted).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", value_parser = parse_addr)]
    listen: IpAddr,
    /// Print only the URL.
    #[arg(short, long)]
    quiet: bool,
}

fn parse_addr(text: &str) -> Result<IpAddr, String> {
    if text.eq_ignore_ascii_case("localhost") {
        return Ok(IpAddr::from([127, 0, 0, 1]));
    }
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .map_err(|_| format!("`{text}` is not an IP address (such as 127.0.0.1 or ::1)"))
}

pub fn run(ui: &Ui, args: Args) -> Result<(), Failure> {
    let config = Config {
        dir: cwd()?,
        listen: args.listen,
        port: args.port,
    };
    let server = match Server::bind(&config) {
        Ok(server) => server,
        Err(err) => {
            let in_use = matches!(&err, git_checkpoint::Error::Io { source, .. }
                if source.kind() == std::io::ErrorKind::AddrInUse);
            super::report(ui, &Failure::Core(err));
            if in_use {
                ui.hint("another server may be running there; choose another port with --port (0 picks a free one)");
            }
            return Err(Failure::Exit(1));
        }
    };
    let url = server.url();
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{url}")?;
        out.flush()?;
    }
    if !args.quiet {
        if !args.listen.is_loopback() {
            ui.warn(&format!(
                "listening on {}: other machines can reach this server; the token travels unencrypted",
                server.addr()
            ));
        }
        let place = server.place();
        // As every command run below a checkpointed plain directory says it.
        if let (Some(there), Some(store)) = (&place.acting_on, &place.store) {
            ui.info(&format!(
                "note: acting on `{}`, the directory above this one whose checkpoints are kept in `{}`",
                there.display(),
                store.display()
            ));
        }
        ui.info(&format!(
            "serving the checkpoints of `{}` on http://{}/ (the URL above carries the token); Ctrl-C stops",
            place.workdir.display(),
            server.addr()
        ));
    }
    if args.open
        && let Err(err) = open_browser(&url)
    {
        ui.warn(&format!(
            "cannot open a browser: {err}; open the URL yourself"
        ));
    }
    // A request's panic is turned into a 500; say it on stderr as one line, not a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("error: a request failed with an internal error{place}; the server goes on");
    }));
    server.run()?;
    Ok(())
}

/// Open `url` in the user's browser, without waiting for it.
fn open_browser(url: &str) -> std::io::Result<()> {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_with_or_without_brackets() {
        assert_eq!(parse_addr("localhost"), Ok(IpAddr::from([127, 0, 0, 1])));
        assert_eq!(
            parse_addr("[::1]"),
            Ok("::1".parse::<IpAddr>().unwrap_or(IpAddr::from([0; 16])))
        );
        assert!(parse_addr("example.com").is_err());
        assert!(parse_addr("127.0.0.1:80").is_err());
    }
}
