// The CPU time a process has used, as Linux counts it in /proc/<pid>/stat:
// what the CLI's time limit measures, so that a check on a loaded machine
// (six at once on two cores) is judged on the solution's own work, not on
// the time it waited for a core.

import { readFileSync } from 'node:fs';

// Linux reports the times in clock ticks of USER_HZ, which is 100 on every architecture's user ABI.
const MS_PER_TICK = 10;

/**
 * The CPU milliseconds (user and system, of every thread, and of its
 * children that have ended) process `pid` has used, or null when it cannot
 * be read (no /proc, or the process is gone).
 */
export function cpuMs(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of stat(5): utime, stime, cutime, cstime; f[0] is field 3.
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * MS_PER_TICK;
}

/**
 * A meter of process `pid`'s CPU milliseconds: each call gives the latest
 * reading, and the last one it could read once the process has gone.
 */
export function cpuMeter(pid) {
  let last = 0;
  return () => {
    const ms = cpuMs(pid);
    if (ms !== null) last = ms;
    return last;
  };
}

/** A meter of this process's own CPU milliseconds (every thread: the judge's devices included). */
export function ownCpuMeter() {
  return () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
}
