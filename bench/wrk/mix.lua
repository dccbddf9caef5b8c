-- wrk script: 90 % recalls (recall.lua), 10 % event writes (write.lua), interleaved 9:1.
local dir = debug.getinfo(1, "S").source:match("@(.*/)") or "./"
dofile(dir .. "recall.lua")
local recall_init = init
dofile(dir .. "write.lua")
local write_init = init
local k = 0

function init(args)
  recall_init(args)
  write_init(args)
end

function request()
  k = k + 1
  if k % 10 == 0 then return write_request() end
  return recall_request()
end
