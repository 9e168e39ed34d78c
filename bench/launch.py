"""Run one command and write its CPU time, wall time, peak memory and exit code to a file.

    python -I -S bench/launch.py REPORT_FILE COMMAND...

Why a launcher: on Linux a child's `ru_maxrss` starts from the high-water mark of
the process that spawned it (the memory it shared until `exec`), so a bench that
holds a 100k-line scenario in memory would lend its own peak to every tool it
times. This small process forks and execs the command, and reports what `wait4`
says of that child alone; its own start-up is outside the measured interval.
"""

import os
import sys
import time

report, *command = sys.argv[1:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(report, "w") as out:
    out.write(f"{usage.ru_utime + usage.ru_stime} {wall} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}\n")
