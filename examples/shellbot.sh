#!/usr/bin/env bash
# shellbot.sh TABLE [NAME] [SECRET]: a Switchboard bot in bash over text mode.
#
# It joins TABLE, plays the first legal action whenever it is its turn, and
# quits when the game is over. The server is $SWITCHBOARD_HOST:$SWITCHBOARD_PORT
# (default 127.0.0.1:7373). It talks through `nc` when there is one, and
# otherwise through bash's own /dev/tcp, so it runs on a bare machine too.
# Every line the server sends starts with a word naming the message; the bot
# asks for the JSON format (`format json`: every field, for programs; people
# read sentences) and needs only three of its lines: `turn` (act when it is ours), `view` (a snapshot:
# act on it too, and stop when the game is over) and `goodbye`. It acts once
# per sequence number, so a snapshot and a turn for the same moment are one
# move. See docs/bots.md and docs/protocol.md (section 13).
set -u
host=${SWITCHBOARD_HOST:-127.0.0.1}
port=${SWITCHBOARD_PORT:-7373}
table=${1:?usage: shellbot.sh TABLE [NAME] [SECRET]}
name=${2:-shellbot$$}
secret=${3:-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')}

if command -v nc >/dev/null 2>&1 && [ -z "${SHELLBOT_DEVTCP:-}" ]; then
  coproc SERVER { nc "$host" "$port"; }
  in=${SERVER[0]} out=${SERVER[1]}
else
  exec 3<>"/dev/tcp/$host/$port" || exit 1
  in=3 out=3
fi

send() { printf '%s\n' "$*" >&"$out"; }

send "format json" # lines with every field, for programs (a person reads sentences)
send "name $name $secret"
send "join $table"
moves=0
acted=-1
while read -r -u "$in" word tbl seq seat to_act rest; do
  case $word in
    turn)
      legal=""
      case $rest in *"legal: "*) legal=${rest#*legal: } ;; esac
      if [ "$tbl" = "$table" ] && [ "$to_act" = "$seat" ] && [ -n "$legal" ] &&
        [ "$seq" != "$acted" ]; then
        send "at $table act ${legal%% | *}"
        acted=$seq moves=$((moves + 1))
      fi
      ;;
    view)
      # view TABLE SEQ SEAT STATE {json}: STATE lands in $to_act. A snapshot
      # (the one that starts the game, say) is also a cue to move when the
      # seat to act is ours: the first entry of "legal" is the action.
      if [ "$tbl" = "$table" ]; then
        state=$to_act
        if [ "$state" = over ]; then
          send "quit"
        elif [[ $state = playing && $rest =~ \"to_act\":([0-9]+) ]] &&
          [ "${BASH_REMATCH[1]}" = "$seat" ] && [ "$seq" != "$acted" ] &&
          [[ $rest =~ \"legal\":\[\"([^\"]+)\" ]]; then
          send "at $table act ${BASH_REMATCH[1]}"
          acted=$seq moves=$((moves + 1))
        fi
      fi
      ;;
    error) echo "shellbot: $word $tbl $seq $seat $to_act $rest" >&2 ;;
    goodbye) break ;;
  esac
done
echo "shellbot: $moves moves at table $table"
