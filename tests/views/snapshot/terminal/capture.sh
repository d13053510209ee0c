#!/usr/bin/env bash
# Text captures of the `opscope` REPL as a user sees it, in tmux at 80 and 120 columns: the same
# session typed at both widths (a product with requires_grad, %trace, a backward, %stack, a loop,
# %graph), written as repl-80.txt and repl-120.txt beside this script (tmux capture-pane: text,
# no colour). Usage, from the repository root after `make build`:
#
#   bash tests/views/snapshot/terminal/capture.sh [BUILD_DIR]      (default: build)
#
# A private tmux server (-L) and a temporary HOME / IPYTHONDIR: nothing of the user's is touched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=$(cd "${1:-build}" && pwd)/bin/opscope
[[ -x $exe ]] || { echo "capture.sh: $exe is missing (make build)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "capture.sh: needs tmux" >&2; exit 1; }

lines=(
  'torch.manual_seed(0); a = torch.randn(2, 3, requires_grad=True); b = torch.randn(3, 4)'
  'c = a @ b'
  '%trace'
  'c.sum().backward()'
  '%stack aten::mm'
  'for i in range(1000): y = c * i'
  '%graph c'
)

# Waits until the pane shows the prompt In [n]: (the shell is idle again).
wait_prompt() {
  local n=$1
  for _ in $(seq 600); do
    tmux -L opscope-capture capture-pane -p -t cap -S - | grep -q "^In \[$n\]:" && return 0
    sleep 0.1
  done
  echo "capture.sh: no prompt In [$n]:" >&2
  return 1
}

for cols in 80 120; do
  home=$(mktemp -d)
  tmux -L opscope-capture new-session -d -s cap -x "$cols" -y 50 \
    "env HOME=$home IPYTHONDIR=$home/ipython XDG_CONFIG_HOME=$home/config TERM=xterm-256color $exe"
  n=1
  wait_prompt $n
  for line in "${lines[@]}"; do
    tmux -L opscope-capture send-keys -t cap -l "$line"
    tmux -L opscope-capture send-keys -t cap Enter
    n=$((n + 1))
    wait_prompt $n
  done
  tmux -L opscope-capture capture-pane -p -t cap -S - | sed -e 's/[[:space:]]*$//' \
    > "$here/repl-$cols.txt"
  tmux -L opscope-capture kill-server
  rm -rf "$home"
  echo "wrote $here/repl-$cols.txt"
done
