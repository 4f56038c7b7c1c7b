//! JSON for the answers hyper gives by itself. A request hyper cannot take — a URI over its
//! 64 KB limit (414), headers too large (431), bytes that are not HTTP (400) — is answered by
//! hyper before any handler sees it, with an empty body. Every other answer of this server is
//! a JSON object, so each connection's writes are watched: a response head with an error
//! status and an empty body is sent with the same status and a JSON body instead. (This
//! server's own error answers always carry a body, so they are never touched.)

use axum::http::StatusCode;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// A listener whose connections get JSON bodies on hyper's own error answers.
pub(crate) struct Listener(pub(crate) TcpListener);

impl axum::serve::Listener for Listener {
    type Io = Watched;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.0).await;
        (
            Watched {
                io,
                pending: Vec::new(),
                sent: 0,
            },
            addr,
        )
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

/// A connection whose bare error answers are rewritten (see the module's note).
pub(crate) struct Watched {
    io: TcpStream,
    /// A rewritten answer still to be sent, and how much of it has been.
    pending: Vec<u8>,
    sent: usize,
}

impl Watched {
    /// Sends what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.pending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        if let Some(answer) = with_json_body(buf) {
            // hyper's bytes are taken; the rewritten answer goes out in their place, the rest
            // of it on the next write, flush or shutdown.
            this.pending = answer;
            this.sent = 0;
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.io).poll_shutdown(cx)
    }
}

/// The answer to send instead of `head`, when `head` is a whole response head with an error
/// status and an empty body (what hyper writes for a request it refuses).
fn with_json_body(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let rest = text.strip_prefix("HTTP/1.1 ")?;
    let lines = rest.strip_suffix("\r\n\r\n")?;
    let mut lines = lines.split("\r\n");
    let status_line = lines.next()?;
    let code: u16 = status_line.get(..3)?.parse().ok()?;
    let status = StatusCode::from_u16(code).ok()?;
    if !(status.is_client_error() || status.is_server_error()) {
        return None;
    }
    let headers: Vec<&str> = lines.collect();
    let empty = headers.iter().any(|h| {
        h.split_once(':').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("content-length") && v.trim() == "0"
        })
    });
    if !empty {
        return None;
    }
    let error = match status {
        StatusCode::URI_TOO_LONG => {
            "the request's URI is longer than this server reads (64 KB): send the game in the \
             JSON body of a POST request"
        }
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => {
            "the request's headers are larger than this server reads"
        }
        StatusCode::BAD_REQUEST => "the request could not be read as HTTP/1.1",
        _ => "the request was refused before it could be read",
    };
    let body = nimbus::api::to_json(&nimbus::api::Failure {
        error: error.into(),
        kind: "invalid",
    });
    let mut out = format!("HTTP/1.1 {status_line}\r\n");
    for h in headers {
        let name = h.split_once(':').map_or(h, |(k, _)| k).trim();
        if !name.eq_ignore_ascii_case("content-length")
            && !name.eq_ignore_ascii_case("content-type")
        {
            out += h;
            out += "\r\n";
        }
    }
    out += &format!(
        "content-type: application/json\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let mut bytes = out.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    Some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_error_heads_get_a_json_body_and_others_pass() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(with_json_body(head).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 414 URI Too Long\r\ndate: x\r\n"));
        let (top, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(top.contains(&format!("content-length: {}", body.len())));
        assert!(top.contains("content-type: application/json"));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["kind"], "invalid");
        assert!(json["error"].as_str().unwrap().contains("64 KB"));
        // An answer with a body, a success, or a part of a head is left alone.
        assert!(with_json_body(b"HTTP/1.1 404 Not Found\r\ncontent-length: 12\r\n\r\n").is_none());
        assert!(with_json_body(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(with_json_body(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
    }
}
