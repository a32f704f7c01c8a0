# Sourced by the scripts that build corpora from pinned Debian packages (real-corpus.sh,
# real-logs.sh): downloads the packages that are not in the cache yet.
#
#   fetch_pinned_debs LABEL CACHE NAME=VERSION...
#
# Downloads each NAME=VERSION whose .deb is not in CACHE (apt-get download, which needs
# package lists: it runs `apt-get update` once when a download finds none), and prints what
# it does to stderr prefixed with LABEL.

fetch_pinned_debs() {
    local label=$1 cache=$2 d name version
    shift 2
    local missing=()
    for d in "$@"; do
        name=${d%%=*}
        version=${d#*=}
        version=${version#*:} # the epoch is not part of the file name
        ls "$cache/${name}_${version}_"*.deb >/dev/null 2>&1 || missing+=("$d")
    done
    ((${#missing[@]})) || return 0
    echo "$label: downloading ${#missing[@]} Debian packages into $cache" >&2
    _download_debs "$cache" "${missing[@]}"
    for d in "${missing[@]}"; do
        name=${d%%=*}
        if ! ls "$cache/${name}_"*.deb >/dev/null 2>&1; then
            echo "$label: no package lists yet; running apt-get update" >&2
            apt-get update -qq
            _download_debs "$cache" "${missing[@]}"
            break
        fi
    done
}

_download_debs() {
    local cache=$1
    shift
    (cd "$cache" && apt-get download -qq "$@" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
}
