; Definitions kopipasta can target in Bash: functions (`f() { … }`,
; `function f { … }`), and variables assigned at the top level of the script.
; Capture scheme: @definition.<kind> on the definition node, @name on its name.

(function_definition name: (word) @name) @definition.function

(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program
  (declaration_command . (variable_assignment name: (variable_name) @name) .) @definition.variable)
