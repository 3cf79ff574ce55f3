#!/usr/bin/env bash
# A real one-node Slurm on this machine, for et's tests and for trying `et slurm`.
#
#   scripts/slurm-local.sh start [DIR]    # munged, slurmctld, slurmd; waits for an idle node
#   scripts/slurm-local.sh status [DIR]   # daemons and sinfo; exit 1 if not running
#   scripts/slurm-local.sh stop [DIR]     # cancels jobs, kills the daemons, removes DIR
#   export SLURM_CONF=DIR/slurm.conf      # then sbatch, squeue, et slurm ... use it
#
# Runs as root on Debian with the packages slurmctld, slurmd, slurm-client and munge
# (scripts/setup.sh installs them). DIR (default <repo>/.cache/slurm-local) holds
# everything: the configuration, a fresh munge key and socket, state, spool, logs and pid
# files; nothing under /etc, /run or /var is used, no systemd is needed, and the ports
# are chosen free at start, so several instances (other DIRs) can run side by side.
# The node has this machine's CPUs and memory (`slurmd -C`) with plugins that need no
# cgroups: jobs are tracked by process tree, not confined, and not accounted (so `sacct`
# has nothing to say; `squeue --states=all` knows finished jobs for MinJobAge = 300 s).
# Both commands are idempotent: start on a running instance only checks it, stop on a
# missing one does nothing.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cmd=${1:-}
dir=${2:-$repo/.cache/slurm-local}
node=etnode
wait_secs=${SLURM_LOCAL_WAIT:-60}

die() { echo "slurm-local.sh: $*" >&2; exit 1; }
usage() { sed -n '2,18p' "$0"; }

case $cmd in
  start|stop|status) ;;
  -h|--help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
dir=$(realpath -m "$dir")
conf=$dir/slurm.conf
export SLURM_CONF=$conf

# The pid in FILE if that process is alive.
alive() {
  local pid
  [[ -f $1 ]] && pid=$(<"$1") && [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

# SIGTERM, then SIGKILL after 10 s, to the process whose pid is in FILE.
stop_pidfile() {
  local pid
  pid=$(alive "$1") || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}

node_state() { sinfo --noheader --nodes="$node" --format=%T 2>/dev/null | head -n1; }

running() {
  alive "$dir/munged.pid" > /dev/null && alive "$dir/slurmctld.pid" > /dev/null &&
    alive "$dir/slurmd.pid" > /dev/null
}

# TCP ports something listens on (IPv4 and IPv6), one per line.
listening_ports() {
  local f _sl address _remote state _rest
  for f in /proc/net/tcp /proc/net/tcp6; do
    [[ -r $f ]] || continue
    while read -r _sl address _remote state _rest; do
      [[ $state == 0A ]] && echo $((16#${address##*:}))
    done < <(tail -n +2 "$f")
  done
}

# A TCP port nobody listens on, other than those given.
free_port() {
  local used port
  used=$(listening_ports | sort -u)
  while :; do
    port=$((20000 + RANDOM % 30000))
    grep -qx "$port" <<< "$used" && continue
    [[ " $* " == *" $port "* ]] && continue
    echo "$port"
    return
  done
}

# Pids of this instance's job steps and all their descendants (the jobs). A slurmstepd
# is ours if its working directory is inside DIR (slurmd starts it there).
step_processes() {
  local stat pid ppid line marked=() children
  for stat in /proc/[0-9]*/comm; do
    pid=${stat#/proc/}
    pid=${pid%/comm}
    [[ $(cat "$stat" 2>/dev/null) == slurmstepd ]] || continue
    [[ $(readlink "/proc/$pid/cwd" 2>/dev/null) == "$dir"/* ]] && marked+=("$pid")
  done
  ((${#marked[@]})) || return 0
  # Parent of every process, to collect descendants before anything is killed.
  children=$(for stat in /proc/[0-9]*/stat; do
    # Field 4 is the parent; the command name (field 2) may contain spaces.
    read -r line 2>/dev/null < "$stat" || continue
    pid=${line%% *}
    line=${line##*) }
    read -r _ ppid _ <<< "$line"
    echo "$ppid $pid"
  done)
  local queue=("${marked[@]}") seen=" " p kids
  while ((${#queue[@]})); do
    p=${queue[0]}
    queue=("${queue[@]:1}")
    [[ $seen == *" $p "* ]] && continue
    seen+="$p "
    echo "$p"
    mapfile -t kids < <(awk -v p="$p" '$1 == p { print $2 }' <<< "$children")
    queue+=("${kids[@]}")
  done
}

do_stop() {
  [[ -d $dir ]] || return 0
  [[ -f $dir/slurm-local.owner ]] ||
    die "$dir was not made by slurm-local.sh (no slurm-local.owner); not touching it"
  # Cancel jobs first, so slurmstepd ends them before the daemons go away.
  if alive "$dir/slurmctld.pid" > /dev/null; then
    local jobs
    mapfile -t jobs < <(squeue --noheader --format=%A 2>/dev/null | sort -u)
    ((${#jobs[@]})) && { scancel --quiet "${jobs[@]}" 2>/dev/null || true; }
    for _ in $(seq 100); do
      [[ -z $(squeue --noheader --format=%i 2>/dev/null) ]] && break
      sleep 0.1
    done
  fi
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  # Job steps outlive slurmd: kill what is left of them and their jobs.
  local pid
  for pid in $(step_processes); do
    [[ $pid == "$$" ]] || kill -9 "$pid" 2>/dev/null || true
  done
  stop_pidfile "$dir/munged.pid"
  rm -rf "$dir"
}

do_status() {
  if running; then
    echo "slurm-local: running in $dir (SLURM_CONF=$conf), node $node $(node_state)"
    sinfo
    return 0
  fi
  echo "slurm-local: not running in $dir"
  return 1
}

do_start() {
  if running && [[ $(node_state) == idle* || $(node_state) == mixed* || $(node_state) == allocated* ]]; then
    echo "slurm-local: already running; export SLURM_CONF=$conf"
    return 0
  fi
  [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd runs jobs as their submitter and needs root)"
  for prog in munged slurmctld slurmd sinfo sbatch; do
    command -v "$prog" > /dev/null ||
      die "$prog not found; install Debian's slurmctld slurmd slurm-client munge (scripts/setup.sh does)"
  done
  # A half-started or stale instance: clean it up and start afresh.
  do_stop
  mkdir -p "$dir"/{state,spool,logs}
  chmod 700 "$dir"
  echo "created by scripts/slurm-local.sh start; removed by stop" > "$dir/slurm-local.owner"

  head -c 1024 /dev/urandom > "$dir/munge.key"
  chmod 400 "$dir/munge.key"
  # --force: the socket lives under DIR, which other users cannot enter; munged would
  # otherwise insist on a world-searchable socket directory.
  munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/logs/munged.log" \
    --seed-file="$dir/munged.seed" ||
    die "munged did not start: $(tail -n 3 "$dir/logs/munged.log" 2>/dev/null)"

  local hw cpus memory ctld_port slurmd_port
  hw=$(slurmd -C | head -n1)
  cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<< "$hw")
  memory=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<< "$hw")
  [[ -n $cpus && -n $memory ]] || die "cannot read CPUs and memory from slurmd -C: $hw"
  ctld_port=$(free_port)
  slurmd_port=$(free_port "$ctld_port")
  cat > "$conf" <<EOF
# Written by scripts/slurm-local.sh: a one-node cluster without cgroups or accounting.
ClusterName=etlocal
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/logs/slurmctld.log
SlurmdLogFile=$dir/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$node NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -f "$conf" || die "slurmctld did not start: $(tail -n 5 "$dir/logs/slurmctld.log" 2>/dev/null)"
  slurmd -f "$conf" -N "$node" || die "slurmd did not start: $(tail -n 5 "$dir/logs/slurmd.log" 2>/dev/null)"

  local state=
  for _ in $(seq $((wait_secs * 5))); do
    state=$(node_state)
    [[ $state == idle* ]] && break
    sleep 0.2
  done
  if [[ $state != idle* ]]; then
    echo "slurm-local.sh: node $node not idle after ${wait_secs}s (state: ${state:-none})" >&2
    tail -n 5 "$dir/logs/slurmctld.log" "$dir/logs/slurmd.log" >&2 || true
    do_stop
    exit 1
  fi
  echo "slurm-local: node $node idle with $cpus CPUs, $memory MiB; export SLURM_CONF=$conf"
}

case $cmd in
  start) do_start ;;
  stop) do_stop ;;
  status) do_status ;;
esac
