-- scheduler.lua: a cooperative job queue for the editor plugin.
local uv = vim.loop
local log = require("plugin.log")

local M = {}

M.config = {
  interval = 50,
  max_jobs = 8,
}

local queue = {}
local running = 0

-- Adds a job to the end of the queue and starts the timer when idle.
function M.enqueue(name, fn)
  assert(type(fn) == "function", "job must be a function")
  local job = { name = name, fn = fn, added = uv.now() }
  table.insert(queue, job)
  log.debug("queued " .. name)
  if running == 0 then
    M.start()
  end
end

local function run_one(job)
  running = running + 1
  local ok, err = pcall(job.fn)
  running = running - 1
  if not ok then
    log.error(job.name .. " failed: " .. tostring(err))
  end
  return ok
end

function M.start()
  local timer = uv.new_timer()
  local interval = M.config.interval
  timer:start(0, interval, vim.schedule_wrap(function()
    M.tick(timer)
  end))
  log.debug("timer started")
end

function M.tick(timer)
  local budget = M.config.max_jobs
  local done = 0
  while #queue > 0 and done < budget do
    local job = table.remove(queue, 1)
    run_one(job)
    done = done + 1
  end
  if #queue == 0 then
    timer:stop()
    timer:close()
  end
end

function M.clear()
  local dropped = #queue
  queue = {}
  log.debug("dropped " .. dropped .. " jobs")
  return dropped
end

function M.setup(opts)
  opts = opts or {}
  local merged = vim.tbl_deep_extend("force", M.config, opts)
  M.config = merged
  log.debug("scheduler configured")
end

return M
