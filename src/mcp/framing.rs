//! The stdio framing of the MCP server: one JSON-RPC message per line on stdin and stdout,
//! read and written here rather than by rmcp's own stdio transport.
//!
//! Why: JSON-RPC wants an answer to every request the server cannot read, and a client that
//! sent a line waits for one. rmcp's transport (3.11) skips a line that is not JSON without a
//! word, drops a line over its length limit without a word, and answers JSON that is not a
//! message with an error that has no `id` member at all; none of that can be configured. So
//! this layer reads stdin line by line, answers each line that cannot be a message itself,
//! and hands rmcp only what it can read:
//!
//! - not JSON → `-32700` Parse error, `"id": null`;
//! - JSON but not a JSON-RPC message → `-32600` Invalid Request, with the request's `id` when
//!   it has a usable one, else `null`; a request this server serves (`tools/call`, …) whose
//!   `params` do not fit it → `-32602` Invalid params, with its `id` (rmcp would take it for
//!   an unknown method);
//! - a line longer than [`MAX_LINE`] → `-32600` with `"id": null`; the rest of the line is
//!   read and thrown away as it comes, never held in memory;
//! - a notification (a `method` and no `id`) that cannot be read, a response from the client
//!   that cannot be read, or a blank line → nothing, as JSON-RPC says.
//!
//! Whatever the server writes, rmcp's responses and this layer's answers alike, goes to one
//! thread that owns stdout and writes one whole line at a time, so two never interleave.

use std::io::{BufRead, Write};

use rmcp::RoleServer;
use rmcp::model::{CallToolRequestParams, ClientRequest, JsonRpcMessage, JsonRpcRequest};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// The longest line read, 16 MiB (without its newline): rmcp's own limit, and far beyond any
/// request of this server's tools.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// The requests this server answers: one of these that rmcp reads as an unknown method has
/// `params` it could not read.
const SERVED: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// What one line of stdin comes to.
#[derive(Debug)]
enum Incoming {
    /// A message, for rmcp.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// An error response this layer writes itself.
    Answer(Value),
    /// Nothing to do or say.
    Nothing,
}

/// The transport rmcp serves on: the lines a thread reads from stdin, and a thread that
/// writes stdout.
pub struct Stdio {
    incoming: mpsc::Receiver<Incoming>,
    out: Option<mpsc::UnboundedSender<Vec<u8>>>,
}

/// Start reading stdin and writing stdout. The returned handle ends once every line handed
/// to the writer is written, after the transport is closed or dropped: join it before exiting.
pub fn stdio() -> (Stdio, std::thread::JoinHandle<()>) {
    // A few lines ahead at most: stdin is read as rmcp takes the messages.
    let (incoming_tx, incoming) = mpsc::channel(4);
    let (out, lines) = mpsc::unbounded_channel();
    // Detached: it may stay blocked in a read of stdin after the server has stopped.
    std::thread::spawn(move || {
        read_lines(std::io::stdin().lock(), MAX_LINE, |line| {
            incoming_tx.blocking_send(line).is_ok()
        })
    });
    let writer = std::thread::spawn(move || write_lines(lines, std::io::stdout()));
    (
        Stdio {
            incoming,
            out: Some(out),
        },
        writer,
    )
}

impl Stdio {
    /// Queue one message as a line of stdout.
    fn write(&self, message: &impl Serialize) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(message)?;
        line.push(b'\n');
        self.out
            .as_ref()
            .and_then(|out| out.send(line).ok())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "stdout is closed"))
    }
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        std::future::ready(self.write(&item))
    }

    /// The next message; answers to lines that were none are written on the way. Cancelling
    /// it loses nothing: an answer is queued without waiting.
    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.incoming.recv().await? {
                Incoming::Message(message) => return Some(*message),
                Incoming::Answer(answer) => self.write(&answer).ok()?,
                Incoming::Nothing => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out = None;
        Ok(())
    }
}

/// Read `input` line by line until its end (or `deliver` says stop), keeping at most `limit`
/// bytes of a line in memory, and deliver what each line comes to.
fn read_lines(mut input: impl BufRead, limit: usize, mut deliver: impl FnMut(Incoming) -> bool) {
    let mut line = Vec::new();
    // Past `limit`: the rest of the line is skipped, and the line refused.
    let mut too_long = false;
    loop {
        let (used, ended) = match input.fill_buf() {
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
            // The end: a last line without a newline is a line too.
            Ok([]) if line.is_empty() && !too_long => return,
            Ok([]) => (0, true),
            Ok(available) => {
                let newline = available.iter().position(|&b| b == b'\n');
                let content = &available[..newline.unwrap_or(available.len())];
                if !too_long && line.len() + content.len() > limit {
                    too_long = true;
                    line = Vec::new();
                }
                if !too_long {
                    line.extend_from_slice(content);
                }
                newline.map_or((available.len(), false), |at| (at + 1, true))
            }
        };
        input.consume(used);
        if ended {
            let incoming = if too_long {
                too_long_answer(limit)
            } else {
                classify(&line)
            };
            line.clear();
            too_long = false;
            if !matches!(incoming, Incoming::Nothing) && !deliver(incoming) {
                return;
            }
        }
    }
}

/// Write each line to `out` as it comes, until every sender is gone or `out` fails.
fn write_lines(mut lines: mpsc::UnboundedReceiver<Vec<u8>>, out: impl Write) {
    let mut out = std::io::BufWriter::new(out);
    while let Some(line) = lines.blocking_recv() {
        if out.write_all(&line).is_err() {
            return;
        }
        // Flush once nothing more is waiting: the client reads each answer as it comes.
        if lines.is_empty() && out.flush().is_err() {
            return;
        }
    }
    let _ = out.flush();
}

/// What one line (without its newline) comes to.
fn classify(line: &[u8]) -> Incoming {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    // A byte order mark may start JSON text (RFC 8259 §8.1); rmcp's transport allowed it too.
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Incoming::Nothing;
    }
    let message_error = match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
        Ok(JsonRpcMessage::Request(JsonRpcRequest {
            id,
            request: ClientRequest::CustomRequest(custom),
            ..
        })) if SERVED.contains(&custom.method.as_str()) => {
            let why = unreadable_params(&custom.method, custom.params);
            return answer(json!(id), -32602, &format!("Invalid params: {why}"));
        }
        Ok(message) => return Incoming::Message(Box::new(message)),
        Err(err) => err,
    };
    let value = match serde_json::from_slice::<Value>(line) {
        Ok(value) => value,
        Err(err) => return answer(Value::Null, -32700, &format!("Parse error: {err}")),
    };
    let has = |key: &str| value.get(key).is_some();
    let method = value.get("method").is_some_and(Value::is_string);
    // A notification, or a response of the client: JSON-RPC answers neither, even unread.
    if (method && !has("id")) || (!has("method") && has("id") && (has("result") || has("error"))) {
        return Incoming::Nothing;
    }
    // An id a response can carry: a string or an integer (MCP allows no other).
    let id = value
        .get("id")
        .filter(|id| id.is_string() || id.is_i64())
        .cloned()
        .unwrap_or(Value::Null);
    let why = if value.is_array() {
        "batches are not supported: send one message per line".to_string()
    } else {
        message_error.to_string()
    };
    answer(id, -32600, &format!("Invalid Request: {why}"))
}

/// Why the `params` of a request this server serves could not be read.
fn unreadable_params(method: &str, params: Option<Value>) -> String {
    let reason = match (method, params) {
        ("tools/call", Some(params)) => serde_json::from_value::<CallToolRequestParams>(params)
            .err()
            .map(|err| format!(": {err}")),
        _ => None,
    };
    format!(
        "`{method}` with params it cannot take{}",
        reason.unwrap_or_default()
    )
}

/// The answer to a line over `limit` bytes.
fn too_long_answer(limit: usize) -> Incoming {
    let mib = limit / (1024 * 1024);
    answer(
        Value::Null,
        -32600,
        &format!("Invalid Request: the line is longer than {mib} MiB, the most this server reads"),
    )
}

/// A JSON-RPC error response.
fn answer(id: Value, code: i32, message: &str) -> Incoming {
    Incoming::Answer(json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    }))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    /// What `incoming` is: a message's kind, an answer's code and id, or nothing.
    fn kind(incoming: Incoming) -> String {
        match incoming {
            Incoming::Message(message) => match *message {
                JsonRpcMessage::Request(_) => "request",
                JsonRpcMessage::Notification(_) => "notification",
                JsonRpcMessage::Response(_) => "response",
                JsonRpcMessage::Error(_) => "error",
            }
            .to_string(),
            Incoming::Answer(a) => format!("{} {}", a["error"]["code"], a["id"]),
            Incoming::Nothing => "nothing".to_string(),
        }
    }

    /// What `input` comes to, line by line, with lines of at most `limit` bytes.
    fn read(input: &[u8], limit: usize) -> Vec<String> {
        let mut got = Vec::new();
        // A small buffer, so that lines span several reads.
        let reader = std::io::BufReader::with_capacity(7, input);
        read_lines(reader, limit, |incoming| {
            got.push(kind(incoming));
            true
        });
        got
    }

    const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    #[test]
    fn every_line_is_a_message_or_an_answer() {
        for (line, expected) in [
            (PING, "request"),
            (
                "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\r",
                "request",
            ),
            (
                r#"{"jsonrpc":"2.0","id":9,"method":"no/such/method"}"#,
                "request",
            ),
            ("not json", "-32700 null"),
            (r#"{"jsonrpc":"2.0","id":1,"method":"ping""#, "-32700 null"),
            (r#"{"hello":"world"}"#, "-32600 null"),
            (r#"{"id":"a","method":"ping"}"#, "-32600 \"a\""),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                "-32600 null",
            ),
            (r#"{"jsonrpc":"2.0","id":3}"#, "-32600 3"),
            ("[]", "-32600 null"),
            ("7", "-32600 null"),
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}"#,
                "-32602 7",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                "notification",
            ),
            // Neither a notification nor a response is answered, even unread.
            (r#"{"method":"notifications/initialized"}"#, "nothing"),
            (r#"{"jsonrpc":"2.0","id":3,"result":{}}"#, "response"),
            (r#"{"id":3,"result":{}}"#, "nothing"),
            ("", "nothing"),
            ("  \r", "nothing"),
        ] {
            assert_eq!(kind(classify(line.as_bytes())), expected, "{line}");
        }
    }

    #[test]
    fn a_line_over_the_limit_is_refused_and_the_next_one_read() {
        let limit = PING.len();
        let long = format!("{PING} {}", "x".repeat(50));
        // Exactly the limit, over it, over it at the end without a newline.
        let input = format!("{PING}\n{long}\n{PING}\n{long}");
        assert_eq!(
            read(input.as_bytes(), limit),
            ["request", "-32600 null", "request", "-32600 null"]
        );
        assert_eq!(read(format!("{PING} ").as_bytes(), limit), ["-32600 null"]);
        // A last line without a newline is read.
        assert_eq!(read(PING.as_bytes(), limit), ["request"]);
    }

    #[test]
    fn a_too_long_answer_says_the_limit() {
        let Incoming::Answer(answer) = too_long_answer(MAX_LINE) else {
            panic!("not an answer");
        };
        assert_eq!(answer["id"], Value::Null);
        assert!(
            answer["error"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("16 MiB")),
            "{answer}"
        );
    }

    #[test]
    fn lines_are_written_whole_in_order() {
        let (out, lines) = mpsc::unbounded_channel();
        for i in 0..3 {
            out.send(format!("{i}\n").into_bytes()).unwrap();
        }
        drop(out);
        let mut written = Vec::new();
        write_lines(lines, &mut written);
        assert_eq!(written, b"0\n1\n2\n");
    }
}
