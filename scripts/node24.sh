#!/usr/bin/env bash
# Prints the folder of Node 24's `node` binary, the production image's Node (Dockerfile: node:24-slim),
# installing it first when missing: the official binary as the npm registry ships it
# (node-linux-<arch>@24), cached outside the repository. Used by .ci/run (the suite on Node 24) and
# bench:compare (builds raced as production runs them).
set -euo pipefail
case "$(uname -m)" in
  x86_64) node_arch=x64 ;;
  aarch64 | arm64) node_arch=arm64 ;;
  *) echo "no node-linux package for $(uname -m)" >&2 && exit 1 ;;
esac
node24_dir="${XDG_CACHE_HOME:-$HOME/.cache}/im-gateway/node24"
node24_bin="$node24_dir/node_modules/node-linux-$node_arch/bin"
if ! "$node24_bin/node" --version 2>/dev/null | grep -q '^v24\.'; then
  npm install --prefix "$node24_dir" "node-linux-$node_arch@24" --no-save --no-audit --no-fund >&2
fi
echo "$node24_bin"
