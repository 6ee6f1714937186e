-- wrk script for `make bench`: sends the request targets given after `--`
-- in turn (wrk -t1 ... URL -- /a /b /c) and, when the run is done, prints the
-- same line as report.lua.
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

done = function(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      "WRK requests=%d duration_us=%d bytes=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d "
         .. "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
      summary.requests, summary.duration, summary.bytes,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
