//! Writes a 4 KiB sample of each script into `corpus/samples/`.
fn main() -> std::io::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    std::fs::create_dir_all(&dir)?;
    for script in vutf8_corpus::Script::ALL {
        let ext = if script == vutf8_corpus::Script::Mixed {
            "jsonl"
        } else {
            "txt"
        };
        let path = dir.join(format!("{}.{ext}", script.name()));
        std::fs::write(&path, vutf8_corpus::generate(script, 4096, 1))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
