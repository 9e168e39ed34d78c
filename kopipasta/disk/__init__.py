"""Disk: the project on disk. Confinement, loading, atomic writes, the journal and undo.

`workspace` confines paths to the root, reads a file into a Source and writes
atomically; `journal` records what every apply replaced and `undo` puts the
newest apply back, byte for byte; `prompt_record` is where `prompt` records
what it showed the model. The rest are their parts:

`beneath` opens paths component by component from a descriptor of the root
and never follows a symlink, so a path swapped for a symlink mid-apply cannot
send a write outside the root. `transaction` puts a set of files in place all
or nothing (temporaries and folders first, then renames, rolled back on
failure). `lock` serialises applies on one root, `limits` and `newlines`
hold the size limits and the new-line rules, `faults` the test hooks that crash or fail a write at a chosen point.
`own_settings` refuses a reply's change to kopipasta's own settings files
(by the files they resolve to, and the template they name);
`run_by_tools` names the files other tools run without asking (the report marks them);
`regular` reads a project file only when it is a regular file, never blocking.
`shown_path` names a path an OS error carries relative to the root, never the machine's.
`workspace`, `journal` and `undo` are the room's public face.
"""
