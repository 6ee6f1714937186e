extension LaunchOptions {
    /// What `feed-server --help` prints: every flag, the subcommands, the exit statuses.
    public static let help = """
        Usage: feed-server [options]
               feed-server user add|passwd|list ...       the accounts (feed-server user --help)
               feed-server token create|revoke|list ...   API tokens for scripts (feed-server token --help)
               feed-server --version

        Serves the Sectional demo pages: /feed, /day, their JSON section lists, and Public/.
        Every option can also come from the environment (SECTIONAL_SESSION_IDLE=2h for --session-idle,
        SECTIONAL_QUIET=true for --quiet; commas between the values of a repeatable one) or from a
        configuration file (--config); a flag wins over the environment, which wins over the file.
        Exit status: 0 after a clean stop; 2 when asked wrongly (a flag, a value, no --public folder);
        1 when something fails (the database cannot be opened, the port is taken).

        Options:
          --host HOST       address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
          --port PORT       port to listen on (default $PORT, else 8080; 0 picks a free one)
          --public DIR      static files to serve (default ./Public)
          --threads N       worker threads (default: the number of cores)
          --quiet           no access log
          --head-timeout DURATION
                            how long a request's line and headers may take to arrive (default 10s)
          --section-timeout DURATION
                            how long a section may load before its fallback shows (default 1s; e.g. 300ms, 2s)
          --no-stream       send every page whole, never streamed
          --database sqlite:PATH | postgres://USER@HOST:PORT/DB | memory:
                            where the data lives (default sqlite:data/sectional.sqlite, created on first
                            start; also $DATABASE_URL); memory: is the demo data in SQLite in memory, not kept
          --no-seed         leave an empty database empty (default: add the demo users and their data)
          --db-connections N
                            PostgreSQL connections that pipeline reads, and as many for writes
                            (default: the cores, at least 2; SQLite has one writer and a reader on each
                            thread that reads)
          --session-idle DURATION
                            a session unused this long ends (default 30m; e.g. 15m, 2h)
          --session-lifetime DURATION
                            a session ends this long after sign-in (default 7d)
          --drain DURATION  after SIGTERM, how long to keep serving while /readyz says 503, so a load
                            balancer moves traffic away first (default 3s; 0s to stop at once)
          --metrics-port PORT
                            serve Prometheus metrics at http://127.0.0.1:PORT/metrics (default: none)
          --metrics-host HOST
                            the metrics listener's address (default 127.0.0.1: never public by accident)
          --log-format text|json
                            log lines: text on stderr (default), or one JSON object a line (the access log's
                            alone on stdout)
          --log-level debug|info|warning|error
                            the least a line must matter to be logged (default info; debug adds clients that
                            left mid-answer and libmicrohttpd's own notes)
          --section-cache SIZE
                            rendered sections kept between requests, until their data changes (default 32MB;
                            0 turns it off, as does --simulate)
          --live-streams N, --live-streams-per-user N
                            open pages kept up to date at once: in all (default 256) and per user (default 8;
                            past it a user's oldest stream ends)
          --post-limit N    form posts a client may send a minute, as many at once (default 60; 0 for no
                            limit): past it, 429 with Retry-After
          --trusted-proxy ADDRESS
                            a proxy whose X-Forwarded-Proto/-For are believed (repeatable; default none):
                            session cookies are Secure when it says https
          --config FILE     options from FILE (also $SECTIONAL_CONFIG): a line each, `session-idle = 2h`,
                            `quiet = true`; # starts a comment
          --environment development|production
                            development: a failed section's card and a 500's page say what went wrong, and
                            --drain defaults to 0s; production (the default): errors in the log only
          --help            this text
          --version         the version and the commit it was built from

        Simulation, for watching pages degrade (off unless given; repeatable):
          --simulate SECTION=delay:DURATION   the section's load takes DURATION longer
          --simulate SECTION=error            the section's load fails
          --simulate SECTION=error:N          the section's first N loads fail, then it loads (its card's Try again works)
          --simulate SECTION=hang             the section's load never finishes (its deadline cuts it)
          --simulate SECTION=trap             the section's load traps: the process ends (make run restarts it)
        """
}
