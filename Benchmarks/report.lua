-- wrk script for `make bench`: when the run is done, prints one line of
-- key=value pairs (latencies in microseconds) for scripts/checks/bench.py to read.
done = function(summary, latency, requests)
   local errors = summary.errors
   io.write(string.format(
      "WRK requests=%d duration_us=%d bytes=%d p50_us=%d p90_us=%d p99_us=%d max_us=%d "
         .. "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d\n",
      summary.requests, summary.duration, summary.bytes,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
      errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
