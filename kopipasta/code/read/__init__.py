"""Read: what a block or a file holds, before anything is edited.

A payload parsed with its placeholders masked (`parsed`), a container's
members in order (`members`, with `fields` for the members that are not
definitions), how a file block is meant (`reading`: whole file, fragment or
elided; `wholefile` for complete payloads and placeholders), the `<script>`
of a Vue or Svelte host (`embedded`), hints for the file at hand (`hints`),
what a file offers to a patch (`inventory`, which `nodes` lists) and whether
a target changed since the prompt (`staleness`).
"""
