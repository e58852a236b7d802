//! The page in a real browser: headless Chromium driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`, from scripts/install-browser.sh).
//! It opens the page, plays moves by clicking the board and the move list, and
//! checks that the list and the URL follow; it saves a screenshot.
//!
//! Ignored by a plain `cargo test` (it needs the browser); `.ci/run` runs it:
//! `cargo test -p breakthrough-explorer --test browser -- --ignored`.
//! BROWSER_TEST_BOARD picks the board (4x5; results/BOARD.cert is the proof
//! browser's certificate), BROWSER_TEST_STORE a store to use
//! (a fresh one), BROWSER_TEST_SCREENSHOT where the picture goes
//! (target/explorer-browser.png), CHROMEDRIVER and CHROMIUM the programs.

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use breakthrough_explorer::solving::PoolSettings;
use breakthrough_explorer::{explorer, http, ServeConfig};
use fantoccini::{Client, ClientBuilder, Locator};

/// Kills chromedriver when the test ends, however it ends.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

async fn start_server(board: &str, board_store: &std::path::Path) -> SocketAddr {
    let results = concat!(env!("CARGO_MANIFEST_DIR"), "/../../results");
    let config = ServeConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        store: board_store.to_path_buf(),
        pool: PoolSettings {
            threads: 1,
            queue: 16,
            table_mb: 64,
            solve_limit: Duration::from_secs(600),
            slice: Duration::from_secs(600),
            retry_after: Duration::from_secs(600),
        },
        move_time: Duration::from_secs(30),
        results: Some(results.into()),
        proof: Some(format!("{results}/{board}.cert").into()),
        allow_hosts: Vec::new(),
        head_timeout: Duration::from_secs(10),
    };
    let explorer = explorer(&config).expect("the explorer starts");
    let listener = tokio::net::TcpListener::bind(config.addr).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(listener, http::router(Arc::clone(&explorer)))
            .await
            .unwrap();
    });
    addr
}

async fn connect(port: u16) -> Client {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let capabilities = serde_json::json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1200,1000"],
        }
    });
    let serde_json::Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(err) if started.elapsed() < Duration::from_secs(20) => {
                let _ = err;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(err) => panic!("cannot reach chromedriver on {url}: {err}"),
        }
    }
}

/// Waits until `check` holds, for at most a minute.
async fn wait_until<F, Fut>(what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !check().await {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "waited a minute for {what}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The rows of the move list: move, outcome, length.
async fn move_rows(client: &Client) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for row in client
        .find_all(Locator::Css("#moves tbody tr"))
        .await
        .unwrap()
    {
        let mut cells = Vec::new();
        for cell in row.find_all(Locator::Css("td")).await.unwrap() {
            cells.push(cell.text().await.unwrap());
        }
        rows.push(cells);
    }
    rows
}

/// Clicks the element `locator` finds.
async fn click(client: &Client, locator: Locator<'_>) {
    client.find(locator).await.unwrap().click().await.unwrap();
}

/// The text of the element with this id.
async fn text_of(client: &Client, id: &str) -> String {
    client
        .find(Locator::Id(id))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn current_query(client: &Client) -> String {
    let url = client.current_url().await.unwrap();
    url.query().unwrap_or_default().to_string()
}

/// Waits for a complete move list (no outcome unknown) and returns it.
async fn settled_moves(client: &Client) -> Vec<Vec<String>> {
    wait_until("a complete move list", || async {
        let rows = move_rows(client).await;
        !rows.is_empty() && rows.iter().all(|row| row[1] == "win" || row[1] == "loss")
    })
    .await;
    move_rows(client).await
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "needs Chromium and chromedriver: scripts/install-browser.sh"]
async fn the_page_plays_moves_by_clicking() {
    let board = std::env::var("BROWSER_TEST_BOARD").unwrap_or_else(|_| "4x5".into());
    let scratch = std::env::temp_dir().join(format!("explorer-browser-{}", std::process::id()));
    let store = std::env::var("BROWSER_TEST_STORE").map_or(scratch.clone(), Into::into);
    let server = start_server(&board, &store).await;

    let port = free_port();
    let chromedriver = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
    let _driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|err| panic!("cannot start {chromedriver}: {err}")),
    );
    let client = connect(port).await;

    client
        .goto(&format!("http://{server}/?board={board}"))
        .await
        .unwrap();
    let first = settled_moves(&client).await;
    let status = text_of(&client, "status").await;
    assert!(status.contains("White to move"), "status: {status}");
    assert!(status.contains("wins; the game lasts"), "status: {status}");
    // The list is best first: a win before any loss, the fastest win first.
    let lengths: Vec<u32> = first.iter().map(|row| row[2].parse().unwrap()).collect();
    if first[0][1] == "loss" {
        assert!(first.iter().all(|row| row[1] == "loss"));
        assert!(
            lengths.windows(2).all(|pair| pair[0] >= pair[1]),
            "{first:?}"
        );
    }
    let screenshot = std::env::var("BROWSER_TEST_SCREENSHOT").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../target/explorer-browser.png"
        )
        .into()
    });
    wait_until("the main line", || async {
        text_of(&client, "mainline").await.starts_with("1. ")
    })
    .await;
    // The start position, as the page first shows it.
    std::fs::write(&screenshot, client.screenshot().await.unwrap()).unwrap();
    let start_query = current_query(&client).await;
    assert!(
        start_query.contains(&format!("board={board}")),
        "{start_query}"
    );

    // Play a2-a3 by clicking the piece, then the square.
    click(&client, Locator::Css("circle[data-square='a2']")).await;
    click(&client, Locator::Css("rect[data-square='a3']")).await;
    wait_until("the URL of the position after a2-a3", || async {
        current_query(&client).await != start_query
    })
    .await;
    let after = settled_moves(&client).await;
    let after_query = current_query(&client).await;
    assert!(after_query.ends_with("+b"), "Black to move: {after_query}");
    assert_ne!(after, first);
    let status = text_of(&client, "status").await;
    assert!(status.contains("Black to move"), "status: {status}");

    // Play the best reply from the move list.
    let best = after[0][0].clone();
    click(
        &client,
        Locator::Css(&format!("#moves tr[data-move='{best}']")),
    )
    .await;
    wait_until("the URL after the best reply", || async {
        current_query(&client).await != after_query
    })
    .await;
    assert!(current_query(&client).await.ends_with("+w"));
    settled_moves(&client).await;

    // Undo goes back to the position after a2-a3.
    click(&client, Locator::Id("undo")).await;
    wait_until("the URL after undo", || async {
        current_query(&client).await == after_query
    })
    .await;
    assert_eq!(settled_moves(&client).await, after);

    let main_line = text_of(&client, "mainline").await;
    assert!(main_line.starts_with("1. "), "main line: {main_line}");

    // The proof browser: down the largest subtree of the board's certificate.
    wait_until("the proof browser", || async {
        client
            .find(Locator::Css("#proof-moves tbody tr"))
            .await
            .is_ok()
    })
    .await;
    let proof_row = client
        .find(Locator::Css("#proof-moves tbody tr"))
        .await
        .unwrap();
    let proof_move = proof_row.attr("data-move").await.unwrap().unwrap();
    proof_row.click().await.unwrap();
    wait_until("the proof's path to grow", || async {
        let path = text_of(&client, "proof-path").await;
        path.contains(&proof_move)
    })
    .await;

    // On a narrow screen nothing runs off the side.
    client.set_window_size(400, 900).await.unwrap();
    let widths = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth]",
            vec![],
        )
        .await
        .unwrap();
    let (scroll, inner) = (widths[0].as_u64().unwrap(), widths[1].as_u64().unwrap());
    assert!(
        scroll <= inner,
        "the page is {scroll} px wide in a {inner} px window"
    );
    let narrow = screenshot.replace(".png", "-narrow.png");
    std::fs::write(&narrow, client.screenshot().await.unwrap()).unwrap();
    client.close().await.unwrap();
    let _ = std::fs::remove_dir_all(&scratch);
}
