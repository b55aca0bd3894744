// Command srezc-load is a load generator for srezc serve: C connections,
// each playing whole episodes one step request at a time over keep-alive
// HTTP, for a duration. It prints steps per second and the latency
// distribution of step requests.
//
//	srezc-load -url http://127.0.0.1:8080 -c 64 -d 30s
//
// With -mcp URL it churns sessions of srezc mcp --http instead (the MCP
// soak): open, a few tool calls, close, and every -abandon-th session
// left without a word for the server to reap.
//
// It plays as a trainer when SREZC_TRAINER_TOKEN holds the server's
// trainer token: it chooses episode ids, closes each episode it finishes,
// and with -token sends the replay token with every step. Without the
// token it plays as an agent under evaluation does: the server draws each
// episode's id, and an episode, which an agent cannot close, keeps its
// lease until the server's --ttl runs out after its last step. Such a run
// needs a server whose --capacity holds every episode it plays; a full
// server's 429 stops the connection that meets it, and the run says so.
//
// Pin it and the server to separate cores to measure the server:
//
//	taskset -c 0 srezc serve --addr 127.0.0.1:8080 &
//	taskset -c 1 srezc-load -url http://127.0.0.1:8080 -c 64 -d 30s
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "server")
	conns := flag.Int("c", 64, "connections (each plays its own episodes)")
	dur := flag.Duration("d", 30*time.Second, "duration")
	perConn := flag.Int("n", 0, "play this many whole episodes on each connection, then stop (0: play until -d runs out)")
	episodes := flag.Int("episodes", 0, "create this many episodes first and keep them live (memory test), then exit")
	token := flag.Bool("token", false, "send the replay token with each step (as a client of several replicas does; a trainer's)")
	mcpURL := flag.String("mcp", "", "churn MCP sessions of srezc mcp --http at this URL (http://HOST:PORT/mcp) instead")
	abandon := flag.Int("abandon", 4, "with -mcp, walk away from every N-th session without closing it")
	flag.Parse()
	if *mcpURL != "" {
		os.Exit(churnMCP(*mcpURL, *conns, *dur, *abandon))
	}
	cfg := loadConfig{url: *url, conns: *conns, dur: *dur, perConn: *perConn, token: *token, trainer: os.Getenv("SREZC_TRAINER_TOKEN")}
	if err := cfg.check(); err != nil {
		fmt.Fprintln(os.Stderr, "srezc-load:", err)
		os.Exit(2)
	}
	if *episodes > 0 {
		n, failed, err := fill(cfg, *episodes)
		if err != nil {
			fmt.Fprintln(os.Stderr, "srezc-load:", err)
			os.Exit(1)
		}
		fmt.Printf("created %d live episodes (%d failed)\n", n, failed)
		if failed > 0 {
			os.Exit(1)
		}
		return
	}
	res, err := play(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "srezc-load:", err)
		os.Exit(1)
	}
	res.print(os.Stdout, cfg)
	if res.full > 0 {
		os.Exit(1)
	}
}

// loadConfig is one run of the HTTP load: conns connections, each playing
// whole episodes until dur runs out, or perConn episodes each when set.
type loadConfig struct {
	url     string
	conns   int
	dur     time.Duration
	perConn int
	token   bool
	// trainer is the trainer token; empty plays as an agent.
	trainer string
}

func (c loadConfig) check() error {
	if c.token && c.trainer == "" {
		return errors.New("-token sends replay tokens, which are the trainer's: set SREZC_TRAINER_TOKEN to the server's trainer token")
	}
	if c.conns < 1 {
		return errors.New("-c must be at least 1")
	}
	return nil
}

// client is one connection's HTTP client, presenting the trainer token
// when the run has one.
func (c loadConfig) client() *http.Client {
	var rt http.RoundTripper = &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}
	if c.trainer != "" {
		rt = &trainerTransport{base: rt, token: c.trainer}
	}
	return &http.Client{Transport: rt}
}

// create starts an episode of task with seed: under an id the trainer
// chooses, or one the server draws for an agent. It returns the episode's
// id and the create's reply.
func (c loadConfig) create(hc *http.Client, task string, seed int, trainerID string) (string, reply, error) {
	body := map[string]any{"task": task, "seed": seed}
	if c.trainer != "" {
		body["id"] = trainerID
	}
	var rep reply
	if err := post(hc, c.url+"/v1/episodes", body, &rep); err != nil {
		return "", rep, err
	}
	if rep.Episode == "" {
		return "", rep, errors.New("the create's reply names no episode")
	}
	return rep.Episode, rep, nil
}

type loadResult struct {
	steps, errors, episodes int64
	// full counts the connections stopped by a full server's 429; fullMsg
	// is the server's word for it.
	full    int64
	fullMsg string
	lat     []time.Duration
}

func play(cfg loadConfig) (loadResult, error) {
	tasks, err := taskHandles(cfg.url)
	if err != nil {
		return loadResult{}, err
	}
	actions := []string{"check_status(web_server)", "inspect_logs(database)", "inspect_metrics(cache)", "check_dependencies(web_server)", "inspect_config(load_balancer)", "inspect_traces(web_server)"}
	var steps, errs, played, full atomic.Int64
	var fullMsg atomic.Value
	lat := make([][]time.Duration, cfg.conns)
	deadline := time.Now().Add(cfg.dur)
	more := func(ep int) bool {
		if cfg.perConn > 0 {
			return ep < cfg.perConn
		}
		return time.Now().Before(deadline)
	}
	var wg sync.WaitGroup
	for c := 0; c < cfg.conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := cfg.client()
			for ep := 0; more(ep); ep++ {
				id, rep, err := cfg.create(hc, tasks[(c+ep)%len(tasks)], ep, fmt.Sprintf("load-%d-%d", c, ep))
				if err != nil {
					if se, ok := err.(*statusError); ok && se.code == http.StatusTooManyRequests {
						// Nothing this connection sends will be let in
						// before a lease ends.
						full.Add(1)
						fullMsg.Store(se.body)
						return
					}
					errs.Add(1)
					continue
				}
				for k := 1; !rep.Done && (cfg.perConn > 0 || time.Now().Before(deadline)); k++ {
					body := map[string]any{"step": k, "action": actions[(k+c)%len(actions)]}
					if cfg.token {
						body["token"] = rep.Token
					}
					start := time.Now()
					err := step(hc, cfg.url+"/v1/episodes/"+id+"/step", body, &rep, cfg.token)
					lat[c] = append(lat[c], time.Since(start))
					if err != nil {
						errs.Add(1)
						break
					}
					steps.Add(1)
				}
				if rep.Done {
					played.Add(1)
				}
				if cfg.trainer != "" {
					req, _ := http.NewRequest("DELETE", cfg.url+"/v1/episodes/"+id, nil)
					if resp, err := hc.Do(req); err == nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}
		}()
	}
	wg.Wait()
	res := loadResult{steps: steps.Load(), errors: errs.Load(), episodes: played.Load(), full: full.Load()}
	if m, ok := fullMsg.Load().(string); ok {
		res.fullMsg = m
	}
	for _, l := range lat {
		res.lat = append(res.lat, l...)
	}
	slices.Sort(res.lat)
	return res, nil
}

func (r loadResult) print(w io.Writer, cfg loadConfig) {
	q := func(p float64) time.Duration {
		if len(r.lat) == 0 {
			return 0
		}
		return r.lat[min(len(r.lat)-1, int(p*float64(len(r.lat))))]
	}
	role := "agent"
	if cfg.trainer != "" {
		role = "trainer"
	}
	if cfg.perConn > 0 {
		fmt.Fprintf(w, "connections %d (%s), %d episodes each: %d episodes, %d steps, errors %d\n", cfg.conns, role, cfg.perConn, r.episodes, r.steps, r.errors)
	} else {
		fmt.Fprintf(w, "connections %d (%s), %s: %d episodes, %d steps, %.0f steps/s, errors %d\n", cfg.conns, role, cfg.dur, r.episodes, r.steps, float64(r.steps)/cfg.dur.Seconds(), r.errors)
	}
	fmt.Fprintf(w, "step latency p50 %v  p90 %v  p99 %v  max %v\n", q(0.5), q(0.9), q(0.99), q(1))
	if r.full > 0 {
		fmt.Fprintf(w, "the server was full: %d of %d connections stopped at a 429 (%s)\n", r.full, cfg.conns, strings.TrimSpace(r.fullMsg))
		if cfg.trainer == "" {
			fmt.Fprintln(w, "an agent cannot close its episodes: each keeps its lease for the server's --ttl after its last step; start the server with a larger --capacity or a shorter --ttl, or play as a trainer (SREZC_TRAINER_TOKEN)")
		}
	}
}

type reply struct {
	Episode string `json:"episode"`
	Done    bool   `json:"done"`
	Token   string `json:"token"`
}

func post(hc *http.Client, url string, body any, out any) error {
	data, err := postRaw(hc, url, body)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// postRaw posts body as JSON and returns the reply's body, or an error for
// a status of 300 or more.
func postRaw(hc *http.Client, url string, body any) ([]byte, error) {
	js, _ := json.Marshal(body)
	resp, err := hc.Post(url, "application/json", bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return nil, &statusError{url: url, code: resp.StatusCode, body: string(data)}
	}
	return data, nil
}

// statusError is a reply of status 300 or more.
type statusError struct {
	url  string
	code int
	body string
}

func (e *statusError) Error() string { return fmt.Sprintf("%s: %d %s", e.url, e.code, e.body) }

// step posts a step and reads only what the loop needs from the reply
// (done, and the token when asked for), so that the generator spends its
// core on requests, not on decoding observations.
func step(hc *http.Client, url string, body any, out *reply, wantToken bool) error {
	data, err := postRaw(hc, url, body)
	if err != nil {
		return err
	}
	out.Done = bytes.Contains(data, []byte(`"done":true`))
	if wantToken {
		if i := bytes.LastIndex(data, []byte(`"token":"`)); i >= 0 {
			rest := data[i+len(`"token":"`):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				out.Token = string(rest[:j])
			}
		}
	}
	return nil
}

func taskHandles(url string) ([]string, error) {
	resp, err := http.Get(url + "/v1/tasks")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var cat struct {
		Tasks []struct {
			Handle string `json:"handle"`
		} `json:"tasks"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&cat); err != nil {
		return nil, err
	}
	var out []string
	for _, t := range cat.Tasks {
		out = append(out, t.Handle)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the server has no tasks")
	}
	return out, nil
}

// fill creates n live episodes and steps each once, for a memory reading.
// It returns how many it created and how many failed.
func fill(cfg loadConfig, n int) (created, failed int64, err error) {
	tasks, err := taskHandles(cfg.url)
	if err != nil {
		return 0, 0, err
	}
	var wg sync.WaitGroup
	var ok, bad atomic.Int64
	next := make(chan int)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{}
			if cfg.trainer != "" {
				hc.Transport = &trainerTransport{base: http.DefaultTransport, token: cfg.trainer}
			}
			for i := range next {
				id, _, err := cfg.create(hc, tasks[i%len(tasks)], i, fmt.Sprintf("fill-%d", i))
				var rep reply
				if err != nil || post(hc, cfg.url+"/v1/episodes/"+id+"/step", map[string]any{"step": 1, "action": "inspect_logs(database)"}, &rep) != nil {
					bad.Add(1)
					continue
				}
				ok.Add(1)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	return ok.Load(), bad.Load(), nil
}

// trainerTransport presents the trainer token on every request.
type trainerTransport struct {
	base  http.RoundTripper
	token string
}

func (t *trainerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Srezc-Trainer-Token", t.token)
	return t.base.RoundTrip(r)
}
