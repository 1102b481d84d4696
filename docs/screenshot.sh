#!/usr/bin/env bash
# Make docs/serve.png, the picture of `git checkpoint serve` in the README and docs/serve.md: a
# demo repository with a few checkpoints of an agent session, the server on a free port, and
# headless Chromium's --screenshot of the page with one checkpoint open.
#
#   bash docs/screenshot.sh [path/to/git-checkpoint]     (default: target/release, else debug)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/target/release/git-checkpoint}"
[ -x "$bin" ] || bin="$root/target/debug/git-checkpoint"
bin="$(realpath "$bin")"
tmp="$(mktemp -d)"
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=Demo GIT_AUTHOR_EMAIL=demo@example.com
export GIT_COMMITTER_NAME=Demo GIT_COMMITTER_EMAIL=demo@example.com
repo="$tmp/shop"
mkdir -p "$repo/src" && cd "$repo"
git init -q -b main
printf 'def total(items):\n    return sum(items)\n' > src/cart.py
printf '# shop\n' > README.md
git add -A && git commit -qm "cart"
gcp() { "$bin" "$@"; }
gcp save -q -m "before the agent starts" >/dev/null
printf 'def total(items, tax=0.2):\n    net = sum(i.price for i in items)\n    return net * (1 + tax)\n' > src/cart.py
gcp save -q --kind auto --session 7f3c9e2a-demo -m "Edit src/cart.py" >/dev/null
printf 'from cart import total\n\ndef test_total():\n    assert total([]) == 0\n' > src/test_cart.py
gcp save -q --kind auto --session 7f3c9e2a-demo -m "Write src/test_cart.py" >/dev/null
printf 'def total(items, tax=0.2, discount=0):\n    net = sum(i.price * i.qty for i in items)\n    return round(net * (1 + tax) - discount, 2)\n' > src/cart.py
printf '# shop\n\nA tiny cart.\n' > README.md
id="$(gcp save -q --kind auto --session 7f3c9e2a-demo -m "Edit src/cart.py and README.md")"
printf 'oops\n' > src/cart.py

url="$("$bin" serve --port 0 -q > "$tmp/url" & echo $! > "$tmp/pid"; sleep 1; head -1 "$tmp/url")"
server="$(cat "$tmp/pid")"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$tmp/profile" --hide-scrollbars --window-size=1280,760 \
    --timeout=12000 --screenshot="$tmp/serve.png" "$url#$id" 2>/dev/null
mkdir -p "$root/docs"
if command -v pngquant >/dev/null; then
    pngquant --force --quality=60-85 --output "$root/docs/serve.png" "$tmp/serve.png"
else
    cp "$tmp/serve.png" "$root/docs/serve.png"
fi
ls -l "$root/docs/serve.png"
