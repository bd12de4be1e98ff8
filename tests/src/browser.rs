//! A real headless Chromium, driven over the DevTools protocol (CDP) on a
//! WebSocket: open a page, run JavaScript, click, type, take screenshots.
//! Enough for the browser client's tests, with nothing but the WebSocket
//! client the tests already use.
//!
//! The browser is Debian's `chromium` (or `$TABULA_CHROMIUM`). WebGL runs on
//! SwiftShader, Chromium's software renderer, so no GPU is needed.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long one protocol command may take.
const COMMAND_WAIT: Duration = Duration::from_secs(30);

/// How long the page may take to show a control (software WebGL on a busy
/// 2-core machine is slow).
const MARK_WAIT: Duration = Duration::from_secs(60);

/// A JavaScript expression for the mark `name` of the page's last frame.
fn mark_expression(name: &str) -> String {
    format!(
        "(() => {{ try {{ return JSON.parse(window.tabulaProbe())[{name:?}] ?? null; }} catch (e) {{ return null; }} }})()"
    )
}

/// A headless browser with one page open.
pub struct Browser {
    child: Child,
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
    _profile: tempfile::TempDir,
}

/// The Chromium binary: `$TABULA_CHROMIUM`, else the first of the usual
/// names on the `PATH`.
pub fn chromium_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TABULA_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ]
    .iter()
    .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
    .find(|candidate| candidate.is_file())
}

impl Browser {
    /// Starts a headless browser whose page is `width`×`height` CSS pixels.
    ///
    /// # Panics
    /// When no Chromium is installed or it does not start.
    pub async fn launch(width: u32, height: u32) -> Browser {
        let binary = chromium_path().expect("chromium is installed (apt-get install chromium)");
        let profile = tempfile::tempdir().expect("profile dir");
        let mut child = Command::new(binary)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu-sandbox",
                "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-port=0",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
            ])
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("chromium starts");
        let stderr = child.stderr.take().expect("stderr");
        let url = tokio::time::timeout(COMMAND_WAIT, async {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let url = url.trim().to_string();
                    // Keep draining stderr so Chromium never blocks on it.
                    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
                    return Some(url);
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .expect("chromium prints its DevTools address");
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect to DevTools");
        let mut browser = Browser {
            child,
            ws,
            session: String::new(),
            next_id: 1,
            _profile: profile,
        };
        let targets = browser.browser_call("Target.getTargets", json!({})).await;
        let page = targets["targetInfos"]
            .as_array()
            .and_then(|t| t.iter().find(|t| t["type"] == "page"))
            .expect("a page target")["targetId"]
            .clone();
        let attached = browser
            .browser_call(
                "Target.attachToTarget",
                json!({"targetId": page, "flatten": true}),
            )
            .await;
        browser.session = attached["sessionId"].as_str().expect("session").to_string();
        browser.call("Page.enable", json!({})).await;
        browser.call("Runtime.enable", json!({})).await;
        browser
            .call(
                "Emulation.setDeviceMetricsOverride",
                json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            )
            .await;
        browser
    }

    /// Sends a command to the browser itself.
    async fn browser_call(&mut self, method: &str, params: Value) -> Value {
        self.send(method, params, None).await
    }

    /// Sends a command to the page and returns its result.
    pub async fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(method, params, Some(session)).await
    }

    async fn send(&mut self, method: &str, params: Value, session: Option<String>) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.ws
            .send(Message::Text(message.to_string().into()))
            .await
            .expect("send to DevTools");
        let reply = tokio::time::timeout(COMMAND_WAIT, async {
            while let Some(Ok(frame)) = self.ws.next().await {
                let Message::Text(text) = frame else { continue };
                let Ok(value) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                // Events (no id) are not needed: the tests poll the page.
                if value["id"] == json!(id) {
                    return Some(value);
                }
            }
            None
        })
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no answer from DevTools to {method}"));
        assert!(reply["error"].is_null(), "{method} failed: {reply}");
        reply["result"].clone()
    }

    /// Opens `url` in the page.
    pub async fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url})).await;
    }

    /// Changes the page's size (a phone's viewport, say).
    pub async fn resize(&mut self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        )
        .await;
    }

    /// Evaluates a JavaScript expression (awaiting a promise) and returns
    /// its value.
    pub async fn eval(&mut self, expression: &str) -> Value {
        let result = self
            .call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        result["result"]["value"].clone()
    }

    /// Clicks (press and release of the left button) at page coordinates.
    pub async fn click(&mut self, x: f64, y: f64) {
        self.mouse("mouseMoved", x, y).await;
        self.mouse("mousePressed", x, y).await;
        tokio::time::sleep(Duration::from_millis(60)).await;
        self.mouse("mouseReleased", x, y).await;
    }

    /// Moves the mouse to page coordinates (egui draws a new frame).
    pub async fn hover(&mut self, x: f64, y: f64) {
        self.mouse("mouseMoved", x, y).await;
    }

    async fn mouse(&mut self, kind: &str, x: f64, y: f64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
        )
        .await;
    }

    /// Turns the mouse wheel at page coordinates: a positive `dy` scrolls
    /// the content under the pointer up (towards its end), as a wheel
    /// turned towards the player does.
    pub async fn wheel(&mut self, x: f64, y: f64, dy: f64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": 0, "deltaY": dy}),
        )
        .await;
    }

    /// Taps with a finger at page coordinates.
    pub async fn tap(&mut self, x: f64, y: f64) {
        let point = json!([{"x": x, "y": y}]);
        self.call(
            "Input.dispatchTouchEvent",
            json!({"type": "touchStart", "touchPoints": point}),
        )
        .await;
        tokio::time::sleep(Duration::from_millis(60)).await;
        self.call(
            "Input.dispatchTouchEvent",
            json!({"type": "touchEnd", "touchPoints": []}),
        )
        .await;
    }

    /// Drags with the left button held from one point to another, in
    /// steps slow enough that each lands in its own frame.
    pub async fn drag(&mut self, from: (f64, f64), to: (f64, f64)) {
        let mid = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
        self.mouse("mouseMoved", from.0, from.1).await;
        self.mouse("mousePressed", from.0, from.1).await;
        for (x, y) in [mid, to] {
            tokio::time::sleep(Duration::from_millis(200)).await;
            self.mouse("mouseMoved", x, y).await;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
        self.mouse("mouseReleased", to.0, to.1).await;
    }

    /// Types text into whatever has the keyboard focus.
    pub async fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            let key = c.to_string();
            for kind in ["keyDown", "keyUp"] {
                let mut params = json!({"type": kind, "key": key});
                if kind == "keyDown" {
                    params["text"] = json!(key);
                }
                self.call("Input.dispatchKeyEvent", params).await;
            }
        }
    }

    /// A PNG of the page as it is now.
    pub async fn screenshot(&mut self) -> Vec<u8> {
        let shot = self
            .call("Page.captureScreenshot", json!({"format": "png"}))
            .await;
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("png data"))
            .expect("base64 screenshot")
    }

    /// Waits until `expression` evaluates to something other than `null`,
    /// `false` or `undefined`, and returns it.
    pub async fn wait_for(&mut self, what: &str, expression: &str, within: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            let value = self.eval(expression).await;
            if !(value.is_null() || value == json!(false)) {
                return value;
            }
            if tokio::time::Instant::now() >= deadline {
                // What the page showed, for whoever reads the failure.
                let shot = std::env::temp_dir().join("tabula-browser-timeout.png");
                let png = self.screenshot().await;
                let _ = std::fs::write(&shot, png);
                panic!(
                    "timed out waiting for {what} ({expression}); the page is in {}",
                    shot.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The mark `name` of the page's last frame (see `client/src/probe.rs`),
    /// or `null`.
    pub async fn mark(&mut self, name: &str) -> Value {
        self.eval(&mark_expression(name)).await
    }

    /// Waits for the control marked `name` and returns its centre.
    pub async fn centre_of(&mut self, name: &str) -> (f64, f64) {
        let r = self.wait_for(name, &mark_expression(name), MARK_WAIT).await;
        let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
        (f("x") + f("w") / 2.0, f("y") + f("h") / 2.0)
    }

    /// Clicks the control marked `name`. egui draws only when something
    /// happens, and a new window places itself over two frames: the mouse
    /// moves there first (a new frame), then clicks where the control is now.
    pub async fn click_mark(&mut self, name: &str) {
        let (x, y) = self.centre_of(name).await;
        self.hover(x, y).await;
        tokio::time::sleep(Duration::from_millis(250)).await;
        let (x, y) = self.centre_of(name).await;
        self.click(x, y).await;
    }

    /// On the connect screen: types `name` and connects.
    pub async fn connect_as(&mut self, name: &str) {
        self.click_mark("name").await;
        self.type_text(name).await;
        self.click_mark("connect").await;
    }

    /// In the lobby: creates a room of `game` (`gomoku` or `backgammon`)
    /// against the AI, with the dialog's other choices as they are.
    pub async fn create_vs_ai(&mut self, game: &str) {
        self.click_mark("create-room").await;
        self.click_mark(&format!("game-{game}")).await;
        self.click_mark("opponent-ai").await;
        self.click_mark("create").await;
    }

    /// Closes the browser.
    pub async fn close(mut self) {
        let _ = self.browser_call("Browser.close", json!({})).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await;
    }
}
