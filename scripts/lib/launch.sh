# Sourced by scripts/yarn-gnn and the benchmarks: runs the yarn-gnn JVM with an application class-data-sharing
# archive (AppCDS) of the jar's and Hadoop's classes.
#
# Why: before a job does any work the JVM loads, verifies and links about 9,000 classes (Hadoop's client, Parquet,
# ORC, Netty, ours): 1.5-2 CPU-seconds on every run, a large share of a small job and of the JIT's warm-up. A
# dynamic archive (JDK 13+, -XX:ArchiveClassesAtExit) maps them ready-made instead. The archive is only valid
# for the exact classpath (the JVM checks each jar's path, size and time, and falls back to loading classes
# normally on a mismatch), so it is kept per classpath and jar version under
# ${XDG_CACHE_HOME:-~/.cache}/yarn-gnn/cds/ and made by the first run that finds none, written under a temporary
# name and renamed when that run exits 0 (a run killed while dumping leaves no archive behind); one per command
# (infer, train, generate, ...), since a dynamic archive holds the classes its first run loaded. YARN containers
# do not use it: their localized jars get new paths in every container.
# YARN_GNN_CDS=0 turns it off.
#
# It also asks for transparent huge pages for the heap (-XX:+UseTransparentHugePages) when the kernel leaves them
# to madvise (/sys/kernel/mm/transparent_hugepage/enabled shows [madvise], the usual default; under [always] the
# heap has them anyway, under [never] the flag could do nothing). Why: a job touches gigabytes of fresh heap, and
# on a virtual machine each 4 KiB first touch and TLB miss pays for the hypervisor's nested page tables (measured
# on a 2-vcore VM, 1M-node gcn infer --local, medians of 4 interleaved pairs: 11.9 -> 8.5 s wall, 13.2 -> 10.6 s
# user CPU). YARN_GNN_HUGE_PAGES=0 leaves it out (so does -XX:-UseTransparentHugePages in YARN_GNN_OPTS: a later
# flag wins).

#
# For `infer` it turns off G1's concurrent marking (-XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=100,
# as LaunchContexts.INFER_GC does for inference containers). Why: an inference's garbage is large primitive arrays
# (read buffers, edge batches, the build's keys), which G1 frees at every young collection without marking, while
# each of its concurrent cycles, started over and over by those allocations as the heap grows, adds three
# safepoints; and a safepoint that comes while a thread zeroes a large new array (the first layer's messages,
# faulted in on a thread of its own during the build) stops every other thread until the zeroing ends, 0.5-0.8 s
# on a VM. Measured, 1M-node bench graph, 4 interleaved pairs each, every pair faster: gcn 5.17-6.01 -> 4.56-4.92
# s on one worker, 5.99-7.56 -> 5.58-6.81 s on two; sage 4.79-5.70 -> 4.50-4.98 s and 5.75-6.25 -> 5.25-5.55 s;
# peak RSS lower. A heap that does fill still gets G1's full collection. It also drops the JVM's periodic
# "Cleanup" safepoint (-XX:GuaranteedSafepointInterval=0, a diagnostic flag, hence the unlock): the same zeroing
# thread made that one wait 0.3-0.6 s too; what it cleans up then waits for the next collection's safepoint.
# Measured, 18 interleaved pairs over gcn and sage on one and two workers (README): 12 faster, every set's median
# lower, the time spent reaching safepoints (-Xlog:safepoint) lower in 17. YARN_GNN_OPTS comes later and wins.

#
# Every command has the vector kernels (org.yarngnn.compute.kernel) compiled by C2 after a twentieth of the JIT's
# usual invocations and loop iterations: the same flags as LaunchContexts.KERNEL_JIT gives compute containers, where
# the why and the measurements are (keep the two equal).

# yarngnn_huge_pages: prints -XX:+UseTransparentHugePages when the launcher asks for huge pages (see above).
yarngnn_huge_pages() {
  if [ "${YARN_GNN_HUGE_PAGES:-1}" != 0 ] \
    && grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
    echo -XX:+UseTransparentHugePages
  fi
}

# yarngnn_jit_flags: prints the JIT's flags, the same for every command (see above).
yarngnn_jit_flags() {
  echo -XX:CompileCommand=quiet '-XX:CompileCommand=CompileThresholdScaling,org.yarngnn.compute.kernel.*::*,0.05'
}

# yarngnn_gc_flags COMMAND: prints the collector's flags for that command (see above).
yarngnn_gc_flags() {
  if [ "$1" = infer ]; then
    echo -XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=100 \
      -XX:+UnlockDiagnosticVMOptions -XX:GuaranteedSafepointInterval=0
  fi
}

# yarngnn_exec JAVA CLASSPATH ARGS... : execs the JVM (archive in use), or runs it and keeps the archive it dumps.
yarngnn_exec() {
  local java_bin=$1 cp=$2
  shift 2
  local jsa="" tmp="" run=() jit=() gc=() cmd="" prev="" arg
  # The command: the word after the main class.
  for arg in "$@"; do
    if [ "$prev" = org.yarngnn.app.Main ]; then cmd=$arg; break; fi
    prev=$arg
  done
  case $cmd in *[!a-z-]*|"") cmd=other ;; esac
  # What every run of the JVM gets: huge pages where asked for, the JIT's and the command's collector flags, the
  # classpath.
  read -r -a run <<<"$(yarngnn_huge_pages)"
  read -r -a jit <<<"$(yarngnn_jit_flags)"
  read -r -a gc <<<"$(yarngnn_gc_flags "$cmd")"
  run+=("${jit[@]}" "${gc[@]}" -cp "$cp")
  if [ "${YARN_GNN_CDS:-1}" != 0 ]; then
    local dir="${XDG_CACHE_HOME:-$HOME/.cache}/yarn-gnn/cds" entries=() entry java_path usable=1
    local IFS=:
    for entry in $cp; do
      [ -n "$entry" ] && entries+=("$entry")
    done
    unset IFS
    for entry in "${entries[@]}"; do
      # CDS refuses a non-empty directory on the classpath (a Hadoop configuration directory, say).
      if [ -d "$entry" ] && [ -n "$(ls -A "$entry" 2>/dev/null)" ]; then usable=0; fi
    done
    java_path=$(readlink -f "$(command -v "$java_bin")" 2>/dev/null || echo "$java_bin")
    if [ "$usable" = 1 ] && mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ]; then
      # The key: every classpath entry with its size and time (what the JVM checks), and the JVM itself.
      # One archive per command: each holds the classes its own runs load.
      local key
      key=$(stat -c '%n %s %Y' "${entries[@]}" "$java_path" 2>/dev/null | md5sum | cut -c1-16)-$cmd
      jsa="$dir/$key.jsa"
      [ -s "$jsa" ] || tmp="$dir/$key.jsa.tmp-$$"
    fi
  fi
  # -Xlog:cds off: a mismatch (or the dump's notes on classes CDS cannot hold) must not reach the user's output.
  local quiet=(-Xlog:cds=off -Xlog:cds+dynamic=off)
  if [ -n "$jsa" ] && [ -z "$tmp" ]; then
    exec "$java_bin" -XX:SharedArchiveFile="$jsa" "${quiet[@]}" "${run[@]}" "$@"
  fi
  if [ -z "$tmp" ]; then
    exec "$java_bin" "${run[@]}" "$@"
  fi
  # The first run: not exec'd, so that the archive can be renamed into place once the JVM has written it; signals
  # are passed on, so a scheduler's kill still reaches the JVM.
  local pid rc=0
  "$java_bin" -XX:ArchiveClassesAtExit="$tmp" "${quiet[@]}" "${run[@]}" "$@" <&0 &
  pid=$!
  trap 'kill -TERM "$pid" 2>/dev/null' TERM INT HUP
  while true; do
    wait "$pid" && rc=0 || rc=$?
    kill -0 "$pid" 2>/dev/null || break
  done
  trap - TERM INT HUP
  if [ "$rc" = 0 ] && [ -s "$tmp" ]; then
    mv -f "$tmp" "$jsa"
  fi
  rm -f "$tmp"
  exit "$rc"
}
