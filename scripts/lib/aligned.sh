# Sourced by the scripts that measure speed (sweep.sh, compare-runs.sh --aligned): the
# flags of a build with every function and every loop starting on a 64-byte boundary.
#
# Why: where the link happens to put a function or a loop moves its speed, and a change to
# one function moves the others. Per call, two binaries whose `avx512::validate` was the
# same machine code measured English HTML at 1.27 and 1.21 (docs/PERFORMANCE.md, "How far
# one binary's figures hold"); on whole files, the AVX2 build of one commit read the
# English Debian reference at 0.86x simdutf8 built plainly and 1.13x aligned on an Intel
# Xeon (docs/PERFORMANCE.md, "A second CPU, fifth time"). Aligned, two builds differ only
# by what changed. (scripts/ab-compare.sh, which builds two commits into one binary, aligns
# its loops only, as measured there: "Two copies of the same code".)
ALIGNED_RUSTFLAGS="-C llvm-args=-align-loops=64 -C llvm-args=-align-all-functions=6"
# The target folder of aligned builds, so that the plain build's cache in target/ is kept.
ALIGNED_TARGET_DIR=target/aligned
