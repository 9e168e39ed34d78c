"""Loop: what a person drives, beside the CLI and calling the engine like any caller.

The copy-paste session (`session`, its keys in `keys`) and the system clipboard
(`clipboard`); the prompt that teaches the protocol (`prompt`, `prompt_template`)
over the files a person selects (`selection`) or picks on screen (`picker`, its
memory in `picked`), and what it costs in tokens (`tokens`); the correction message for the model
(`feedback`); the apply log and its counts (`applylog`, `applystats`);
`--verify` (`verify`), the format step (`formatter`) and what holds both (`step_guard`); project settings (`settings`); the bundled demo
(`demo`). Nothing in the engine's rooms imports this one.
"""
