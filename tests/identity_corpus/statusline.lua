--[[
  statusline.lua - a statusline module, to exercise the Lua grammar.
]]

local M = {}
M.components = {}
M.components.git = {}

local Component = {}
Component.__index = Component

--- Create a component.
---@param name string
---@param render fun(): string
function Component.new(name, render)
  local self = setmetatable({}, Component)
  self.name = name
  self.render = render
  return self
end

function Component:draw(...)
  local parts = { ... }
  local text = self.render()
  for _, part in ipairs(parts) do
    text = text .. part
  end
  return text
end

local function pad(text, width)
  local function spaces(n)
    return string.rep(" ", n)
  end
  return text .. spaces(math.max(width - #text, 0))
end

function M.components.git.branch()
  local handle = io.popen("git branch --show-current 2>/dev/null")
  if not handle then
    return ""
  end
  local branch = handle:read("*l") or ""
  handle:close()
  return branch
end

M.separator = " | "

M.template = [==[
%s%s%s
]==]

M.render = function(width)
  local left = Component.new("mode", function() return vim.fn.mode() end)
  return pad(left:draw(M.separator), width)
end

local cache = setmetatable({}, { __mode = "k" })

function M.setup(opts)
  opts = opts or {}
  M.separator = opts.separator or M.separator
  cache = {}
end

return M
