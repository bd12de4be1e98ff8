//! The WebSocket closing handshake over a raw socket, byte by byte (a real
//! client library would not send the broken frames): the server answers a
//! client's close frame, closes with 1007 on text that is not UTF-8 and with
//! 1002 on a protocol violation, instead of dropping the TCP connection.

use std::time::Duration;

use tabula_tests::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A TCP connection that has done the WebSocket upgrade by hand.
async fn upgraded(server: &TestServer) -> TcpStream {
    let mut tcp = TcpStream::connect(server.addr).await.expect("connect");
    let request = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.addr
    );
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        tcp.read_exact(&mut byte).await.expect("response");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    tcp
}

/// A client frame (final, masked) of `opcode` with `payload`.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    assert!(payload.len() < 126);
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut out = vec![0x80 | opcode, 0x80 | payload.len() as u8];
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

/// Reads server frames until a close frame, and returns its code; `None`
/// when the connection ends without one.
async fn close_code(tcp: &mut TcpStream) -> Option<u16> {
    let read = async {
        loop {
            let mut head = [0u8; 2];
            tcp.read_exact(&mut head).await.ok()?;
            let mut len = u64::from(head[1] & 0x7f);
            if len == 126 {
                let mut ext = [0u8; 2];
                tcp.read_exact(&mut ext).await.ok()?;
                len = u64::from(u16::from_be_bytes(ext));
            } else if len == 127 {
                let mut ext = [0u8; 8];
                tcp.read_exact(&mut ext).await.ok()?;
                len = u64::from_be_bytes(ext);
            }
            let mut payload = vec![0u8; len as usize];
            tcp.read_exact(&mut payload).await.ok()?;
            if head[0] & 0x0f == 0x8 {
                return Some(u16::from_be_bytes([payload[0], payload[1]]));
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("an answer in time")
}

#[tokio::test]
async fn a_clients_close_frame_is_answered() {
    let server = TestServer::start().await;
    let mut tcp = upgraded(&server).await;
    tcp.write_all(&frame(0x8, &1000u16.to_be_bytes()))
        .await
        .expect("close");
    assert_eq!(close_code(&mut tcp).await, Some(1000));
    server.stop().await;
}

#[tokio::test]
async fn text_that_is_not_utf8_closes_with_1007() {
    let server = TestServer::start().await;
    let mut tcp = upgraded(&server).await;
    tcp.write_all(&frame(0x1, b"{\"type\":\"ping\xff\xfe\"}"))
        .await
        .expect("send");
    assert_eq!(close_code(&mut tcp).await, Some(1007));
    server.stop().await;
}

#[tokio::test]
async fn a_protocol_violation_closes_with_1002() {
    let server = TestServer::start().await;
    // An unmasked client frame.
    let mut tcp = upgraded(&server).await;
    tcp.write_all(&[0x81, 0x02, b'h', b'i'])
        .await
        .expect("send");
    assert_eq!(close_code(&mut tcp).await, Some(1002));
    // Reserved bits set.
    let mut tcp = upgraded(&server).await;
    let mut bad = frame(0x1, b"hi");
    bad[0] |= 0x40;
    tcp.write_all(&bad).await.expect("send");
    assert_eq!(close_code(&mut tcp).await, Some(1002));
    server.stop().await;
}
