//! The same SQL on a Ballista cluster and on a local `SessionContext`: a scheduler and two
//! executors started here as separate processes on loopback (the crate's binaries
//! `vutf8-ballista-scheduler` and `vutf8-ballista-executor`), stopped at the end, the whole
//! test bounded in time.

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arrow::array::{AsArray, RecordBatch};
use ballista::prelude::SessionContextExt;
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::prelude::{ParquetReadOptions, SessionContext};

/// The longest the cluster may take to start and answer a first query.
const START_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest the test's queries may take in all.
const QUERY_TIMEOUT: Duration = Duration::from_secs(240);

/// Started processes, killed when dropped (also when the test fails).
struct Processes(Vec<(String, Child)>);

impl Processes {
    fn start(&mut self, name: &str, exe: &str, args: &[String], log: &Path) {
        let out = std::fs::File::create(log.join(format!("{name}.log"))).unwrap();
        let child = Command::new(exe)
            .args(args)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {exe}: {e}"));
        self.0.push((name.to_string(), child));
    }

    /// Waits until something accepts connections on `port` of 127.0.0.1, failing if a
    /// process exits first or `START_TIMEOUT` passes.
    async fn wait_for_port(&mut self, port: u16, log: &Path) {
        let started = Instant::now();
        let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
        loop {
            self.check_running(log);
            if std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_ok() {
                return;
            }
            assert!(
                started.elapsed() < START_TIMEOUT,
                "nothing listens on port {port} after {START_TIMEOUT:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Fails if a process has exited (it should serve until stopped).
    fn check_running(&mut self, log: &Path) {
        for (name, child) in &mut self.0 {
            if let Some(status) = child.try_wait().unwrap() {
                let text = std::fs::read_to_string(log.join(format!("{name}.log")));
                panic!("{name} exited with {status}: {}", text.unwrap_or_default());
            }
        }
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        for (_, child) in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Log lines in 4 Parquet files, so that the scan has several tasks to spread.
fn write_logs(dir: &Path) {
    for part in 0..4 {
        let batch = vutf8_datafusion::demo::log_lines(part * 5_000, 5_000, 20);
        let file = std::fs::File::create(dir.join(format!("part-{part}.parquet"))).unwrap();
        let mut writer = ArrowWriter::try_new(file, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
    }
}

const QUERIES: [&str; 4] = [
    "SELECT count(*) AS bad FROM logs WHERE NOT is_valid_utf8(msg)",
    "SELECT level, count(*) AS n, sum(length(make_valid_utf8(msg))) AS chars \
     FROM logs GROUP BY level ORDER BY level",
    "SELECT id, utf8_error_offset(msg) AS at, utf8_error_reason(msg) AS why, \
     try_validate_utf8(msg) AS ok FROM logs WHERE NOT is_valid_utf8(msg) ORDER BY id",
    "SELECT id, make_valid_utf8(msg) AS clean FROM logs ORDER BY id LIMIT 50",
];

async fn run(ctx: &SessionContext, sql: &str) -> Vec<RecordBatch> {
    ctx.sql(sql).await.unwrap().collect().await.unwrap()
}

fn text(batches: &[RecordBatch]) -> String {
    arrow::util::pretty::pretty_format_batches(batches)
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_sql_gives_the_same_result_on_a_ballista_cluster() {
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("logs");
    std::fs::create_dir(&data).unwrap();
    write_logs(&data);
    let data = data.to_str().unwrap().to_string() + "/";

    let scheduler_port = free_port();
    let mut processes = Processes(Vec::new());
    processes.start(
        "scheduler",
        env!("CARGO_BIN_EXE_vutf8-ballista-scheduler"),
        &["--port".into(), scheduler_port.to_string()],
        work.path(),
    );
    // An executor that finds no scheduler exits ("Could not connect to scheduler": one CI
    // run in many, on a busy machine), so the executors start once it listens, and look
    // for it where it listens (not at `localhost`, which may be ::1).
    processes.wait_for_port(scheduler_port, work.path()).await;
    for executor in 0..2 {
        let dir = work.path().join(format!("executor-{executor}"));
        std::fs::create_dir(&dir).unwrap();
        let args = [
            "--scheduler-host".to_string(),
            "127.0.0.1".into(),
            "--scheduler-port".into(),
            scheduler_port.to_string(),
            "--port".into(),
            free_port().to_string(),
            "--grpc-port".into(),
            free_port().to_string(),
            "--work-dir".into(),
            dir.to_str().unwrap().into(),
            "--concurrent-tasks".into(),
            "1".into(),
        ];
        processes.start(
            &format!("executor-{executor}"),
            env!("CARGO_BIN_EXE_vutf8-ballista-executor"),
            &args,
            work.path(),
        );
    }

    // The local answers.
    let local = SessionContext::new();
    vutf8_datafusion::register(&local);
    local
        .register_parquet("logs", &data, ParquetReadOptions::default())
        .await
        .unwrap();

    // Connect, and wait until the cluster answers (executors register after the scheduler).
    let url = format!("df://127.0.0.1:{scheduler_port}");
    let started = Instant::now();
    let remote = loop {
        processes.check_running(work.path());
        let attempt = async {
            let ctx = SessionContext::remote(&url).await?;
            vutf8_datafusion::register(&ctx);
            ctx.register_parquet("logs", &data, ParquetReadOptions::default())
                .await?;
            ctx.sql(QUERIES[0]).await?.collect().await?;
            Ok::<_, datafusion::error::DataFusionError>(ctx)
        };
        let why = match tokio::time::timeout(Duration::from_secs(30), attempt).await {
            Ok(Ok(ctx)) => break ctx,
            Ok(Err(e)) => e.to_string(),
            Err(_) => "an attempt took more than 30 s".to_string(),
        };
        assert!(
            started.elapsed() < START_TIMEOUT,
            "the cluster did not answer within {START_TIMEOUT:?}: {why}"
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    };

    let compared = tokio::time::timeout(QUERY_TIMEOUT, async {
        for sql in QUERIES {
            let (expected, got) = (
                text(&run(&local, sql).await),
                text(&run(&remote, sql).await),
            );
            assert_eq!(got, expected, "{sql}");
            assert!(expected.lines().count() > 4, "{sql}: {expected}");
        }
        // validate_utf8's error crosses the cluster as an error naming the problem.
        let failed = remote
            .sql("SELECT validate_utf8(msg) FROM logs")
            .await
            .unwrap()
            .collect()
            .await
            .unwrap_err()
            .to_string();
        assert!(failed.contains("INVALID_UTF8_STRING"), "{failed}");
    })
    .await;
    assert!(
        compared.is_ok(),
        "the queries took more than {QUERY_TIMEOUT:?}"
    );
    processes.check_running(work.path());
    // Both executors ran tasks (Ballista logs each one), so the work was spread.
    for executor in 0..2 {
        let log =
            std::fs::read_to_string(work.path().join(format!("executor-{executor}.log"))).unwrap();
        let tasks = log.matches("Finished task").count();
        assert!(tasks > 0, "executor {executor} ran no task:\n{log}");
    }
    let bad = run(&remote, QUERIES[0]).await;
    let bad = bad[0]
        .column(0)
        .as_primitive::<arrow::datatypes::Int64Type>()
        .value(0);
    assert!(
        bad > 500 && bad < 2_000,
        "about one line in 20 is damaged: {bad}"
    );
}
