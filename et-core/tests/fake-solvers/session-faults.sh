#!/bin/sh
# session-faults.sh FAULT N [DIR]
# A session solver that misbehaves. It reads commands one per line from standard input
# (as et's session tests send them) and answers like a solver run with `-in`: `unsat`
# for a (check-sat) after an (assert false), else `sat`; the TEXT of (echo "TEXT"),
# bare; (reset) forgets the assertions. From its (N+1)-th (check-sat) on it does FAULT:
#   die      prints `fatal failure` on stderr and exits 3 (no echo)
#   hang     stops answering (touches DIR/hanging first, then waits on a child sleep)
#   garbage  prints a garbage line instead of the answer (the echo still comes)
#   spin     spins on the CPU
#   hog      a child allocates 1 GiB
#   extra    prints `late output` after each echo but et's lead echoes (those whose
#            text ends in `-lead`, sent before a formula): output nobody asked for
#   sticky   (reset) does not forget an (assert false): a state kept across resets
#   quit     answers, prints the echo that follows and exits 3 at once: the answer
#            and the end of the process reach the reader together
# With DIR, it writes its pid to DIR/pid when it starts.
fault=$1
n=$2
dir=$3
[ -n "$dir" ] && echo $$ > "$dir/pid"
checks=0
falsified=0
while IFS= read -r line; do
  case "$line" in
    *"(reset)"*)
      [ "$fault" = sticky ] || falsified=0 ;;
    *"(assert false)"*)
      falsified=1 ;;
    *"(check-sat)"*)
      checks=$((checks + 1))
      if [ "$checks" -gt "$n" ]; then
        case "$fault" in
          die) echo "fatal failure" >&2; exit 3 ;;
          hang) touch "$dir/hanging"; sleep 1000; exit 0 ;;
          garbage) echo '#!@ garbage'; continue ;;
          spin) while :; do :; done ;;
          hog) python3 -c 'b = bytearray(1 << 30); import time; time.sleep(100)' ;;
          quit) quitting=1 ;;
        esac
      fi
      if [ "$falsified" = 1 ]; then echo unsat; else echo sat; fi ;;
    *"(echo \""*)
      text=${line#*\"}
      echo "${text%\"*}"
      case "$fault:$text" in
        extra:*-lead\"*) ;;
        extra:*) echo "late output" ;;
        quit:*-lead\"*) ;;
        quit:*) [ -n "$quitting" ] && exit 3 ;;
      esac ;;
  esac
done
