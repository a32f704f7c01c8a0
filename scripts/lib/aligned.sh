# Sourced by the scripts that measure speed (sweep.sh, compare-runs.sh --aligned): the
# flags of a build with every function and every loop starting on a 64-byte boundary.
#
# Why: where the link happens to put a function or a loop moves its speed, per call and on
# whole files, and a change to one function moves the others; aligned, two builds differ
# only by what changed (docs/PERFORMANCE.md#method-layout). (scripts/ab-compare.sh, which
# builds two commits into one binary, aligns its loops only, which is enough there.)
ALIGNED_RUSTFLAGS="-C llvm-args=-align-loops=64 -C llvm-args=-align-all-functions=6"
# The target folder of aligned builds, so that the plain build's cache in target/ is kept.
ALIGNED_TARGET_DIR=target/aligned
