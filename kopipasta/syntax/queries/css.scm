; Definitions kopipasta can target in CSS (issue 25): rules by their selector,
; block at-rules by keyword and prelude, @keyframes by name. A rule inside an
; @media (or @supports, @layer, @container, or a nesting rule) is qualified by
; it, as a method is by its class. Names are spelled canonically
; (syntax/markup_names.py): the @name node of a rule is its `selectors`, of an
; at-rule the statement itself.

(rule_set (selectors) @name) @definition.rule
((media_statement) @name @definition.media)
((supports_statement) @name @definition.at-rule)
((at_rule (block)) @name @definition.at-rule)
(keyframes_statement (keyframes_name) @name) @definition.keyframes
