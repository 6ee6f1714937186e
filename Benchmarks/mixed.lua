-- wrk script for `make bench`: sends the request targets given after `--`
-- in turn (wrk -t1 ... URL -- /a /b /c) and, when the run is done, prints
-- report.lua's line.
local targets = {}
local next_target = 0

init = function(args)
   for i = 1, #args do
      targets[#targets + 1] = wrk.format("GET", args[i])
   end
   if #targets == 0 then
      targets[1] = wrk.format("GET", wrk.path)
   end
end

request = function()
   next_target = next_target % #targets + 1
   return targets[next_target]
end

-- The summary line is report.lua's (wrk runs from the repository root).
dofile("Benchmarks/report.lua")
