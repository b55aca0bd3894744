package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/serve"
)

func (e *env) serveCmd() *cobra.Command {
	var (
		addr                                     string
		listenAny                                bool
		ttl, wsIdle, wsPing                      time.Duration
		capacity, pool, maxAction                int
		maxBody                                  int64
		keyEnv, apiTokenEnv, gradEnv, trainerEnv string
	)
	c := &cobra.Command{
		Use:   "serve [--addr HOST:PORT] [SUITE|PATH...]",
		Short: "Serve the suite over HTTP: episodes for trainers, an OpenEnv face, Prometheus metrics",
		Long: `Serve a compiled suite file (srezc compile --suite) or sources (the embedded
suite with no PATH) over a JSON HTTP API: create, step, observe, fork and
close episodes, one at a time or in groups; an OpenEnv-compatible face
(/reset, /step, /state, /schema, /health, /metadata, /ws, /mcp); and
/metrics for Prometheus. The README has the API reference.

Agents under evaluation only step forward: they name tasks by opaque
handle (GET /v1/tasks) or split, get server-drawn episode ids, and see
observations only. Replay tokens, resume and rewind from them, fork,
close, chosen episode ids and author task ids are the trainer's: requests
with the trainer token (header X-Srezc-Trainer-Token), and only when the
variable --trainer-token-env names is set. A trainer's replies carry a
token sealed with the key in the variable --token-key-env names: replicas
given the same key continue each other's episodes, so a load balancer
needs no sticky sessions for trainers. Without a key, tokens work on this
process only. The key also keys the task handles.

Rewards, components, records and the branches a rewind abandoned come
back only to requests with the grader token (header X-Srezc-Grader-Token),
and only when the variable --grader-token-env names is set. With the
variable --api-token-env names set, every route but /health and /metrics
needs Authorization: Bearer. Listens on loopback unless --listen-any.`,
		RunE: func(c *cobra.Command, args []string) error {
			loopback, err := isLoopback(addr)
			if err != nil {
				return usageError{fmt.Errorf("--addr %q: %v", addr, err)}
			}
			if !loopback && !listenAny {
				return usageError{fmt.Errorf("--addr %s is not a loopback address: pass --listen-any to serve beyond this machine", addr)}
			}
			tasks, err := e.loadServed(args)
			if err != nil {
				return err
			}
			v := eval.VersionsFor(Version, tasks)
			key := []byte(os.Getenv(keyEnv))
			if len(key) == 0 {
				fmt.Fprintf(e.stderr, "srezc: %s is not set: replay tokens will work on this process only\n", keyEnv)
			} else if len(key) < 16 {
				return usageError{fmt.Errorf("%s holds %d bytes; a token key needs at least 16", keyEnv, len(key))}
			}
			if os.Getenv(trainerEnv) == "" {
				fmt.Fprintf(e.stderr, "srezc: %s is not set: every client is an agent (no replay tokens, rewind, fork or close)\n", trainerEnv)
			}
			srv, err := serve.New(serve.Options{Tasks: tasks, Versions: v, TTL: ttl, Capacity: capacity, Pool: pool, MaxBody: maxBody,
				TokenKey: key, APIToken: os.Getenv(apiTokenEnv), GraderToken: os.Getenv(gradEnv), TrainerToken: os.Getenv(trainerEnv),
				MaxAction: maxAction, WSIdle: wsIdle, WSPing: wsPing})
			if err != nil {
				return err
			}
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return err
			}
			hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 30 * time.Second,
				WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() {
				tick := time.NewTicker(max(time.Second, ttl/4))
				defer tick.Stop()
				for {
					select {
					case <-tick.C:
						srv.Expire()
					case <-ctx.Done():
						return
					}
				}
			}()
			go func() {
				<-ctx.Done()
				shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				hs.Shutdown(shut)
			}()
			fmt.Fprintf(e.stderr, "srezc: serving %d tasks (suite %s) on http://%s\n", len(tasks), engine.SuiteHash(tasks)[:12], ln.Addr())
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on")
	f.BoolVar(&listenAny, "listen-any", false, "allow an address beyond loopback")
	f.DurationVar(&ttl, "ttl", 10*time.Minute, "how long an idle episode keeps its lease")
	f.IntVar(&capacity, "capacity", 10000, "most episodes leased at once (then 429 with Retry-After)")
	f.IntVar(&pool, "pool", 256, "episodes kept materialised; the others are rebuilt from their actions when stepped")
	f.Int64Var(&maxBody, "max-body", 1<<20, "largest request body in bytes")
	f.StringVar(&keyEnv, "token-key-env", "SREZC_TOKEN_KEY", "variable holding the replay-token key replicas share")
	f.StringVar(&apiTokenEnv, "api-token-env", "SREZC_API_TOKEN", "variable holding the bearer token every request needs (unset: none)")
	f.StringVar(&gradEnv, "grader-token-env", "SREZC_GRADER_TOKEN", "variable holding the grader token (unset: the grader view is off)")
	f.StringVar(&trainerEnv, "trainer-token-env", "SREZC_TRAINER_TOKEN", "variable holding the trainer token (unset: tokens, rewind, fork and close are off)")
	f.IntVar(&maxAction, "max-action", 4096, "longest action in bytes (each is folded into the replay token)")
	f.DurationVar(&wsIdle, "ws-idle", 0, "close a WebSocket session silent this long (default: --ttl)")
	f.DurationVar(&wsPing, "ws-ping", 30*time.Second, "ping WebSocket sessions this often to find dead peers")
	return c
}
