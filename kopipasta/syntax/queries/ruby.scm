; Definitions kopipasta can target in Ruby.
; Capture scheme: @definition.<kind> on the definition node, @name on its name,
; @scope on qualifiers written in the definition itself (`class Admin::User`).
; Every `def` is a method, as Rubyists say (a top-level one is a method of
; Object); `def self.find_by_email` is the method `User.find_by_email`.

(class name: (constant) @name (#structure-in-python!)) @definition.class
(class name: (scope_resolution scope: (_) @scope name: (constant) @name) (#structure-in-python!)) @definition.class
(module name: (constant) @name (#structure-in-python!)) @definition.module
(module name: (scope_resolution scope: (_) @scope name: (constant) @name) (#structure-in-python!)) @definition.module

(method name: (_) @name (#structure-in-python!)) @definition.method
; def Shop.version: the method `version` of Shop, written outside it.
(singleton_method object: (constant) @scope name: (_) @name (#structure-in-python!)) @definition.method
(singleton_method name: (_) @name (#structure-in-python!)) @definition.method

; Constants at class or module level: ROLES = %w[admin editor].freeze
(assignment left: (constant) @name (#structure-in-python!)) @definition.variable
