-- wrk script: POST /v1/namespaces/bench-writes/events, one new event a request (unique content).
local n = 0
local tag = ""

function init(args)
  tag = tostring({}):sub(8)
end

function write_request()
  n = n + 1
  return wrk.format("POST", "/v1/namespaces/bench-writes/events", {["Content-Type"] = "application/json"},
                    '{"session_id":"bench-' .. tag .. '","role":"user","content":"bench write ' .. tag .. " " .. n ..
                    ': I moved my desk to room ' .. (n % 97) .. '."}')
end

request = write_request
