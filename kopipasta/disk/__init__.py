"""Everything that touches the project on disk, beyond reading and writing one file.

`beneath` opens paths component by component from a descriptor of the root
and never follows a symlink, so a path swapped for a symlink mid-apply cannot
send a write outside the root. `transaction` puts a set of files in place all
or nothing (temporaries and folders first, then renames, rolled back on
failure). `lock` serialises applies on one root, `stale` remembers what a
prompt showed, `limits` and `newlines` hold the size limits and the new-line
rules, `faults` the test hooks that crash or fail a write at a chosen point.
`kopipasta.workspace` and `kopipasta.journal` stay the public faces.
"""
