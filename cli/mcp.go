package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/eval"
	"github.com/srezc/srezc/mcpserve"
)

func (e *env) mcpCmd() *cobra.Command {
	var (
		addr, task, taskFrom, split, record, name string
		seed                                      uint64
		listenAny, exportHeldOut                  bool
		structured                                bool
		sessionIdle                               time.Duration
		maxSessions                               int
	)
	c := &cobra.Command{
		Use:   "mcp [--http ADDR [--listen-any]] [--task-from file:PATH|env:VAR | --task ID | --split NAME] [--seed N] [--record DIR [--as mcp:NAME]] [SUITE|PATH...]",
		Short: "Serve incidents to coding agents (Claude Code, Codex, any MCP client) over MCP, one episode per session",
		Long: `Serve incidents over the Model Context Protocol, one episode per MCP session:
on stdin/stdout (the default, for a client that starts srezc mcp itself), or
over streamable HTTP at http://ADDR/mcp with --http ADDR (loopback only
unless --listen-any).

SUITE is a compiled suite file (srezc compile --suite FILE), so that the
machine serving needs no scenario sources; PATHs are sources; with neither,
the embedded default suite is served.

With --task-from file:PATH (the file holds the incident's id or hash) or
--task-from env:VAR (the variable does) every session plays that incident
with --seed. --task ID does the same for local authoring, but a command
line is public on the machine (/proc/*/cmdline, ps): an agent run beside
the server reads the id, and with it the answer, there; evaluate with
--task-from. Otherwise session k (counting from 0 in the order sessions
start) plays the k-th incident of --split NAME, or of the whole suite,
cycling, with seed --seed + k / (number of incidents).

Over HTTP a session idle for --session-idle is closed and its episode
recorded; beyond --max-sessions open sessions a new one gets 503 with
Retry-After; /metrics serves the sessions' counts for Prometheus.

A session's instructions, the resource srezc://incident and the prompt
"incident" hold the episode's intro (alert, services, tools); the incident's
tools are MCP tools whose results are the observation text. Nothing of the
grader (incident id, difficulty, split, reward) reaches the client.
resolve_incident and escalate end the episode; later calls are errors.

With --record DIR each session's episode is appended to DIR/records.jsonl
when it ends or its session closes (an episode with no step is not), under
--as (default mcp:CLIENT, the client's name), so that srezc report DIR
covers agents evaluated over MCP.`,
		RunE: func(c *cobra.Command, args []string) error {
			if task != "" && taskFrom != "" {
				return usageError{errors.New("--task and --task-from both name the incident: give one of them")}
			}
			if taskFrom != "" {
				var err error
				if task, err = readSelector(taskFrom); err != nil {
					return usageError{fmt.Errorf("--task-from %s: %v", taskFrom, err)}
				}
			}
			if task != "" && split != "" {
				return usageError{errors.New("--task plays one incident and --split a selection: give one of them")}
			}
			if listenAny && addr == "" {
				return usageError{errors.New("--listen-any only applies to --http ADDR")}
			}
			if addr != "" {
				loopback, err := isLoopback(addr)
				if err != nil {
					return usageError{fmt.Errorf("--http %s: %v", addr, err)}
				}
				if !loopback && !listenAny {
					return usageError{fmt.Errorf("--http %s is not a loopback address: anyone who reaches it can play the incidents; pass --listen-any to serve on it anyway", addr)}
				}
			}
			if name != "" && record == "" {
				return usageError{errors.New("--as only names a recorded episode: add --record DIR")}
			}
			if name != "" && (!strings.HasPrefix(name, "mcp:") || len(name) == len("mcp:")) {
				return usageError{fmt.Errorf("--as takes mcp:NAME, not %q", name)}
			}
			if problem := mcpserve.NameProblem(name); problem != "" {
				return usageError{fmt.Errorf("--as %q %s", name, problem)}
			}
			tasks, err := e.loadServed(args)
			if err != nil {
				return err
			}
			for _, t := range tasks {
				if taskFrom != "" && t.Hash == task {
					task = t.ID
				}
			}
			selection, err := selectTasks(tasks, task, split)
			if err != nil {
				return err
			}
			opt := mcpserve.Options{
				Tasks:         selection,
				Seed:          seed,
				Agent:         name,
				Suite:         engine.SuiteHash(tasks),
				Versions:      eval.VersionsFor(Version, tasks),
				ExportHeldOut: exportHeldOut,
				Structured:    structured,
				Version:       Version,
				Log:           e.stderr,
				SessionIdle:   sessionIdle,
				MaxSessions:   maxSessions,
			}
			if record != "" {
				if err := os.MkdirAll(record, 0o755); err != nil {
					return err
				}
				opt.RecordPath = filepath.Join(record, "records.jsonl")
			}
			srv, err := mcpserve.New(opt)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if addr == "" {
				fmt.Fprintf(e.stderr, "srezc mcp: serving %d incidents on stdin/stdout\n", len(selection))
				return srv.Serve(ctx, mcpserve.StdioTransport(e.stdin, e.stdout))
			}
			return e.serveMCPHTTP(ctx, srv, addr, len(selection))
		},
	}
	f := c.Flags()
	f.StringVar(&addr, "http", "", "serve streamable HTTP at ADDR (host:port) instead of stdin/stdout")
	f.BoolVar(&listenAny, "listen-any", false, "allow --http on an address that is not loopback")
	f.StringVar(&task, "task", "", "every session plays this incident (its id; visible to every process: prefer --task-from)")
	f.StringVar(&taskFrom, "task-from", "", "every session plays the incident whose id or hash file:PATH or env:VAR holds")
	f.DurationVar(&sessionIdle, "session-idle", 10*time.Minute, "close an HTTP session idle this long, recording its episode")
	f.IntVar(&maxSessions, "max-sessions", 1000, "most open HTTP sessions (then 503 with Retry-After)")
	f.StringVar(&split, "split", "", "sessions cycle through the incidents of this split")
	f.Uint64Var(&seed, "seed", 1, "the seed of the first pass over the incidents")
	f.StringVar(&record, "record", "", "append each session's episode to DIR/records.jsonl")
	f.StringVar(&name, "as", "", "the recorded agent's name, mcp:NAME (default mcp:CLIENT, from the client)")
	f.BoolVar(&exportHeldOut, "export-heldout", false, "keep the trajectories of held-out test tasks in records.jsonl (left out by default)")
	f.BoolVar(&structured, "structured", false, "also return each observation's JSON form as structuredContent")
	return c
}

// selectTasks is what sessions cycle through: one incident, a split's, or
// all, in suite order.
func selectTasks(tasks []*engine.Task, id, split string) ([]*engine.Task, error) {
	if id != "" {
		t, err := pickTask(tasks, id)
		if err != nil {
			return nil, err
		}
		return []*engine.Task{t}, nil
	}
	if split == "" {
		return tasks, nil
	}
	var out []*engine.Task
	var splits []string
	for _, t := range tasks {
		if t.Split == split {
			out = append(out, t)
		}
		if !slices.Contains(splits, t.Split) {
			splits = append(splits, t.Split)
		}
	}
	if len(out) == 0 {
		slices.Sort(splits)
		return nil, usageError{fmt.Errorf("no incident in split %q (the suite's splits: %s)", split, strings.Join(splits, ", "))}
	}
	return out, nil
}

// isLoopback reports whether a listen address is on the loopback
// interface; an empty host means every interface.
func isLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// serveMCPHTTP serves sessions over streamable HTTP until ctx is done,
// then closes the sessions (recording their episodes) and the listener.
func (e *env) serveMCPHTTP(ctx context.Context, srv *mcpserve.Server, addr string, n int) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	mux.Handle("GET /metrics", srv.MetricsHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(e.stderr, "srezc mcp: serving %d incidents at http://%s/mcp\n", n, ln.Addr())
	select {
	case err = <-served:
		// The listener failed; still record the open sessions.
		_ = srv.Close()
		return err
	case <-ctx.Done():
	}
	// Sessions first: their event streams keep connections busy, which
	// Shutdown would wait for.
	recErr := srv.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		hs.Close()
	}
	return recErr
}

// readSelector reads the incident --task-from names: file:PATH or
// env:VAR, holding an id or a hash.
func readSelector(from string) (string, error) {
	kind, where, ok := strings.Cut(from, ":")
	var raw string
	switch {
	case ok && kind == "file":
		data, err := os.ReadFile(where)
		if err != nil {
			return "", err
		}
		raw = string(data)
	case ok && kind == "env":
		v, set := os.LookupEnv(where)
		if !set {
			return "", fmt.Errorf("the variable %s is not set", where)
		}
		raw = v
	default:
		return "", errors.New("give file:PATH or env:VAR")
	}
	if sel := strings.TrimSpace(raw); sel != "" {
		return sel, nil
	}
	return "", errors.New("it holds no incident")
}
