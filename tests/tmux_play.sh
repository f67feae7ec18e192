#!/usr/bin/env bash
# Play `switchboard play` in a real terminal (tmux) the way a person would, and show the screens.
#
#   tests/tmux_play.sh [RULESET]        # default: switch; also abbott, kilodney, any preset
#
# It starts the client in a detached 80x24 tmux session (a local server with bots, no address),
# waits for the board, asks for help (F1), plays a few turns with Tab completion, talks, resizes
# the window, and quits with Ctrl-D, printing the screen (capture-pane) after each step. It exits
# non-zero if a step does not show what it should. Needs tmux and the project installed (the
# `switchboard` command, or run it from the repository with its .venv).
set -euo pipefail

game="${1:-switch}"
session="switchboard-demo-$$"
here="$(cd "$(dirname "$0")/.." && pwd)"
if command -v switchboard >/dev/null 2>&1; then
  cmd="switchboard"
elif [ -x "$here/.venv/bin/switchboard" ]; then
  cmd="$here/.venv/bin/switchboard"
else
  echo "tmux_play: install the project first (pip install -e .)" >&2
  exit 2
fi
command -v tmux >/dev/null || { echo "tmux_play: tmux is not installed" >&2; exit 2; }

config="$(mktemp -d)"
status_file="$config/status"
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$config"; }
trap cleanup EXIT

show() { # show TITLE: print the screen under a heading
  echo "===== $1 ====="
  tmux capture-pane -p -t "$session"
  echo
}

wait_for() { # wait_for TEXT [SECONDS]: until the screen shows TEXT
  local text="$1" limit="${2:-10}" i=0
  while ! tmux capture-pane -p -t "$session" | grep -qF -- "$text"; do
    sleep 0.2
    i=$((i + 1))
    if [ "$i" -gt $((limit * 5)) ]; then
      show "FAILED: waited $limit s for '$text'"
      exit 1
    fi
  done
}

tmux new-session -d -s "$session" -x 80 -y 24 \
  "SWITCHBOARD_CONFIG_DIR='$config' '$cmd' play --game '$game' --name demo --bot-delay 0.3; echo \$? > '$status_file'; sleep 30"

wait_for "Players"
show "the table, dealt"

tmux send-keys -t "$session" F1
wait_for "closes this help"
show "F1: help"
tmux send-keys -t "$session" Escape
sleep 0.5

for turn in 1 2 3; do
  wait_for "your move>" 20
  # Tab lists what may be typed (the actions legal now first); Tab again takes the first.
  # Then the same for its argument: the cards or squares that make it legal.
  tmux send-keys -t "$session" Tab
  sleep 0.2
  [ "$turn" = 1 ] && show "turn $turn: Tab lists the legal actions"
  tmux send-keys -t "$session" Tab
  sleep 0.2
  tmux send-keys -t "$session" " " Tab
  sleep 0.2
  tmux send-keys -t "$session" Tab
  sleep 0.3
  show "turn $turn: the action completed by Tab"
  tmux send-keys -t "$session" Enter
  sleep 1
done
show "after three turns"

tmux send-keys -t "$session" "'good luck everyone" Enter
wait_for "demo: good luck everyone"

tmux resize-window -t "$session" -x 100 -y 30 2>/dev/null || tmux resize-pane -t "$session" -x 100 -y 30
sleep 0.8
show "resized to 100x30"

tmux send-keys -t "$session" C-d
for _ in $(seq 50); do [ -s "$status_file" ] && break; sleep 0.1; done
show "after Ctrl-D (the shell's screen is back)"
code="$(cat "$status_file" 2>/dev/null || echo missing)"
echo "switchboard play exited with status $code"
[ "$code" = 0 ]
