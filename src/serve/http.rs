//! The preview's HTTP/1.1 server, on `std::net`: a fixed pool of connection workers fed by a
//! bounded queue, and a limit on every read (line and header sizes, a deadline for each
//! request's head, a write timeout), so one client can neither stall the others nor make the
//! server grow. tiny_http, used before, spawned a thread per connection without bound, had no
//! read timeout or line limit, and wrote responses on the one request loop.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::Site;

/// How far the server goes for one client.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once (one thread each).
    pub workers: usize,
    /// Accepted connections waiting for a worker; more are answered 503 and closed.
    pub queue: usize,
    /// The longest request or header line, in bytes.
    pub line: usize,
    /// The most bytes of a request's head (request line and headers).
    pub head: usize,
    /// The time a request's head may take to arrive, idle time before it included.
    pub head_time: Duration,
    /// The time one write of a response may block on a client that does not read.
    pub write_time: Duration,
    /// The largest request body read (and discarded); a larger one closes the connection.
    pub body: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            workers: 16,
            queue: 64,
            line: 8 * 1024,
            head: 64 * 1024,
            head_time: Duration::from_secs(10),
            write_time: Duration::from_secs(10),
            body: 1024 * 1024,
        }
    }
}

/// Serves `site` on `listener` until the process ends; `log` gets each request's method,
/// target and status.
pub fn run(
    listener: &TcpListener,
    site: &Site,
    limits: Limits,
    log: &(dyn Fn(&str, &str, u16) + Sync),
) {
    let (queue, waiting) = sync_channel::<TcpStream>(limits.queue);
    let waiting = Arc::new(Mutex::new(waiting));
    std::thread::scope(|scope| {
        for _ in 0..limits.workers.max(1) {
            let waiting = Arc::clone(&waiting);
            scope.spawn(move || work(&waiting, site, limits, log));
        }
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            if let Err(TrySendError::Full(stream)) = queue.try_send(stream) {
                busy(stream);
            }
        }
    });
}

/// Every worker busy and the queue full: said at once, never waited on.
fn busy(mut stream: TcpStream) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let _ = stream.write_all(
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    // What the client sent so far is read (not waited for), so the close is not a reset that
    // would lose the answer.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    if stream.set_nonblocking(true).is_ok() {
        let _ = stream.read(&mut [0; 8192]);
    }
}

fn work(
    waiting: &Mutex<Receiver<TcpStream>>,
    site: &Site,
    limits: Limits,
    log: &(dyn Fn(&str, &str, u16) + Sync),
) {
    loop {
        let next = match waiting.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(stream) = next else { return };
        // Errors are the client's (it hung up, was too slow or sent too much): its connection
        // ends, the worker goes on.
        let _ = serve_connection(stream, site, limits, log);
    }
}

/// A reader that gives up at a deadline, whatever the pace of the bytes before it.
struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf)
    }
}

/// One request's head as read.
struct Head {
    method: String,
    target: String,
    close: bool,
    body: u64,
}

/// Why a head was not read: a status to answer with, or nothing (the client went away).
enum Refused {
    Answer(u16),
    Gone,
}

fn serve_connection(
    stream: TcpStream,
    site: &Site,
    limits: Limits,
    log: &(dyn Fn(&str, &str, u16) + Sync),
) -> std::io::Result<()> {
    stream.set_write_timeout(Some(limits.write_time))?;
    let mut out = stream.try_clone()?;
    let mut reader = BufReader::new(Deadline {
        stream,
        until: Instant::now(),
    });
    loop {
        reader.get_mut().until = Instant::now() + limits.head_time;
        let head = match read_head(&mut reader, limits) {
            Ok(head) => head,
            Err(Refused::Gone) => return Ok(()),
            Err(Refused::Answer(status)) => {
                let reason = reason(status);
                write!(
                    out,
                    "HTTP/1.1 {status} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                )?;
                return Ok(());
            }
        };
        if head.body > limits.body {
            write!(
                out,
                "HTTP/1.1 413 {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                reason(413)
            )?;
            return Ok(());
        }
        std::io::copy(&mut reader.by_ref().take(head.body), &mut std::io::sink())?;
        let reply = site.respond_to(&head.method, &head.target);
        log(&head.method, &head.target, reply.status);
        let mut response = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
        for (name, value) in &reply.headers {
            // A value with a line break would split the response: left out.
            if !name.contains(['\r', '\n']) && !value.contains(['\r', '\n']) {
                response.push_str(&format!("{name}: {value}\r\n"));
            }
        }
        response.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
        if head.close {
            response.push_str("Connection: close\r\n");
        }
        response.push_str("\r\n");
        // One write for the head and the body: two small writes meet Nagle's algorithm and the
        // client's delayed ACK, and every answer on a kept connection waits 40 ms.
        let mut bytes = response.into_bytes();
        if head.method != "HEAD" {
            bytes.extend_from_slice(&reply.body);
        }
        out.write_all(&bytes)?;
        out.flush()?;
        if head.close {
            return Ok(());
        }
    }
}

fn read_head(reader: &mut impl BufRead, limits: Limits) -> Result<Head, Refused> {
    let mut total = 0;
    let mut line = |first: bool| -> Result<Option<String>, Refused> {
        let mut buf = Vec::new();
        let read = reader
            .take(limits.line as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|_| Refused::Gone)?;
        if read == 0 {
            return Err(Refused::Gone);
        }
        total += read;
        if !buf.ends_with(b"\n") {
            return Err(Refused::Answer(if first { 414 } else { 431 }));
        }
        if total > limits.head {
            return Err(Refused::Answer(431));
        }
        let text = String::from_utf8(buf).map_err(|_| Refused::Answer(400))?;
        let text = text.trim_end_matches(['\r', '\n']).to_string();
        Ok((!text.is_empty()).then_some(text))
    };
    // Blank lines before a request are allowed (RFC 9112 §2.2).
    let request = loop {
        if let Some(l) = line(true)? {
            break l;
        }
    };
    let mut parts = request.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(Refused::Answer(400));
    };
    if !version.starts_with("HTTP/1.") || method.is_empty() || !target.starts_with('/') {
        return Err(Refused::Answer(400));
    }
    let mut head = Head {
        method: method.to_string(),
        target: target.to_string(),
        close: version == "HTTP/1.0",
        body: 0,
    };
    while let Some(field) = line(false)? {
        let Some((name, value)) = field.split_once(':') else {
            return Err(Refused::Answer(400));
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("connection") {
            head.close = value.eq_ignore_ascii_case("close");
        } else if name.eq_ignore_ascii_case("content-length") {
            head.body = value.parse().map_err(|_| Refused::Answer(400))?;
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(Refused::Answer(501));
        }
    }
    Ok(head)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}
